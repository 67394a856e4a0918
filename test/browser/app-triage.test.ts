// Triage in the team app (docs/app.md, docs/triage.md), in a real browser against a real server on
// each database: a conversation's automatic summary arriving live, and left out with the draft's
// description when they only repeat a short message; its suggestions accepted,
// dismissed, run again and edited before accepting; a refusal when someone else acted first; the
// Triage view worked from the keyboard (J/K/A/D/Enter), joined live by a newly triaged
// conversation and left live by a suggestion accepted elsewhere, and loaded again when its event
// stream opens late; the triage setting in a product's settings, with the published link precision
// and recall of the matcher in use next to Auto. Suggestions are made with
// POST /conversations/{id}/triage on products whose automatic triage is off, so each test knows
// what it will see; the lexical matcher scores the texts of test/helpers/triage.ts as repeats or not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { closeAppPage, openAppPage, settled, type AppServer } from '../helpers/app-server.js';
import { assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';
import lexicalModel from '../../src/domain/triage/classifier/models/lexical.json' with { type: 'json' };
import { CSV_ISSUE, CSV_PARAPHRASE, CSV_REPEAT, UNRELATED } from '../helpers/triage.js';

for (const dialect of DIALECTS) {
  describe(`triage in the team app [${dialect}]`, () => {
    let app: AppServer;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let acme: { product: { id: string }; issue: { id: string; shortcode: string } };
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} triage ${name}`, () => context?.pages() ?? [], body));

    /** A product whose automatic triage is off, with the open issue CSV_ISSUE. */
    async function productWithCsvIssue(name: string) {
      const product = (await app.api('POST', '/api/v1/products', { name, triage: 'off' })).data;
      const issue = (await app.api('POST', '/api/v1/issues', { product_id: product.id, ...CSV_ISSUE })).data;
      return { product, issue };
    }
    const importConversation = async (productId: string, text: { title: string; body: string }) =>
      (await app.api('POST', '/api/v1/conversations', { product_id: productId, ...text, contact: { name: 'Ada Lovelace', email: 'ada@example.com' } })).data;
    /** POST /conversations/{id}/triage: the suggestion it made. */
    const triage = async (conversationId: string) => (await app.api('POST', `/api/v1/conversations/${conversationId}/triage`)).data.at(-1);
    const suggestionsOf = async (conversationId: string) => (await app.api('GET', `/api/v1/conversations/${conversationId}/suggestions`)).data;
    const panel = () => page.getByRole('region', { name: 'Summary and triage' });

    before(async () => {
      ({ browser, app, context, page } = await openAppPage(dialect));
      acme = await productWithCsvIssue('Acme Mobile App');
    });
    after(() => closeAppPage({ browser, app }));

    step('shows the automatic summary on top of a conversation when it is written, without a reload', async () => {
      const product = (await app.api('POST', '/api/v1/products', { name: 'Summaries' })).data;
      const conversation = await importConversation(product.id, {
        title: 'Reports fail to export',
        body: [
          'Hello there, I hope you are well.',
          'Exporting a large report to CSV crashes the app every time, on version 4.2 and on every computer in our office.',
          'Small reports export fine, and the PDF export of the same large report works too.',
          'The crash started after the last update, when the export screen changed.',
          'We send these reports to our accountants every Monday, so it would be great to hear back soon. Thanks, Ada',
        ].join(' '),
      });
      // Summaries come 2 s after the message: the conversation is on screen before.
      const loaded = page.waitForResponse((response) => response.url().endsWith(`/api/v1/conversations/${conversation.id}`));
      await page.goto(`/app/inbox/${conversation.id}`);
      assert.equal((await (await loaded).json()).data.ai_summary, null);
      await expect(panel().getByText('Run triage again'));
      assert.equal(await panel().getByText('Automatic summary').count(), 0);
      await eventually(async () => (await app.api('GET', `/api/v1/conversations/${conversation.id}`)).data.ai_summary !== null, 'the summary on the server');
      const { ai_summary: summary } = (await app.api('GET', `/api/v1/conversations/${conversation.id}`)).data;
      await expect(panel().getByText('Automatic summary'));
      assert.equal((await panel().locator('.ai-summary-text').textContent())!.trim(), summary);
      assert.match(summary, /crashes the app/);
      assert.doesNotMatch(summary, /Hello|Thanks/);
      await assertAccessible(page, 'a conversation with its summary');
    });

    step('shows a short message\'s point once: no summary that repeats it, an issue title, no description that repeats the summary', async () => {
      const { product } = await productWithCsvIssue('Short messages');
      const body = "Hi, since this morning I can't log in with Google. I get a 403 error and the whole team is locked out. Thanks!";
      const conversation = await importConversation(product.id, { title: body.split('.')[0], body });
      await eventually(async () => (await app.api('GET', `/api/v1/conversations/${conversation.id}`)).data.ai_summary !== null, 'the summary on the server');
      const suggestion = await triage(conversation.id);
      assert.deepEqual([suggestion.kind, suggestion.title], ['create', 'I get a 403 error and the whole team is locked out']);
      assert.equal(suggestion.description, (await app.api('GET', `/api/v1/conversations/${conversation.id}`)).data.ai_summary);
      await page.goto(`/app/inbox/${conversation.id}`);
      await expect(panel().locator('.suggestion-title').getByText(suggestion.title));
      assert.equal(await panel().getByText('Automatic summary').count(), 0, 'the summary is the message again');
      assert.equal(await panel().locator('.suggestion-description').count(), 0, 'the description is the summary again');
    });

    step('accepts a link suggestion from the conversation: linked to the issue it repeats', async () => {
      const csvIssue = acme.issue;
      const conversation = await importConversation(acme.product.id, CSV_REPEAT);
      const suggestion = await triage(conversation.id);
      assert.equal(suggestion.kind, 'link');
      await page.goto(`/app/inbox/${conversation.id}`);
      await expect(panel().getByText(/Same as an open issue · similarity 100%/));
      await expect(panel().getByRole('link', { name: csvIssue.shortcode }));
      await assertAccessible(page, 'a conversation with a link suggestion');
      await panel().getByRole('button', { name: 'Accept' }).click();
      await expect(panel().getByText('Accepted'));
      await expect(panel().getByText(/Linked to/));
      await expect(page.locator('.linked-issues').getByRole('link', { name: csvIssue.shortcode }));
      const [accepted] = await suggestionsOf(conversation.id);
      assert.equal(accepted.status, 'accepted');
      const issue = (await app.api('GET', `/api/v1/issues/${csvIssue.id}`)).data;
      assert.ok(issue.linked_conversations.some((linked: { id: string }) => linked.id === conversation.id));
    });

    step('dismisses a suggestion from the conversation, then runs triage again', async () => {
      const { product } = await productWithCsvIssue('Dismissals');
      const conversation = await importConversation(product.id, UNRELATED);
      assert.equal((await triage(conversation.id)).kind, 'create');
      await page.goto(`/app/inbox/${conversation.id}`);
      await expect(panel().getByText(/New issue, drafted from this conversation/));
      await panel().getByRole('button', { name: 'Dismiss' }).click();
      await expect(panel().getByText('Dismissed'));
      await expectGone(panel().getByRole('button', { name: 'Dismiss' }));
      assert.equal((await suggestionsOf(conversation.id))[0].status, 'dismissed');

      await panel().getByRole('button', { name: 'Run triage again' }).click();
      await expect(panel().getByRole('button', { name: 'Dismiss' }));
      assert.deepEqual((await suggestionsOf(conversation.id)).map((s: { status: string }) => s.status), ['dismissed', 'open']);
    });

    step('says so when someone else accepted the suggestion first, and shows it accepted', async () => {
      const { product } = await productWithCsvIssue('Races');
      const conversation = await importConversation(product.id, UNRELATED);
      const suggestion = await triage(conversation.id);
      // Without the event stream, the page cannot learn of the other person's accept before the click.
      await page.route('**/api/v1/events/stream', (route) => route.abort());
      try {
        await page.goto(`/app/inbox/${conversation.id}`);
        await expect(panel().getByRole('button', { name: 'Accept' }));
        await app.api('POST', `/api/v1/suggestions/${suggestion.id}/accept`);
        await panel().getByRole('button', { name: 'Accept', exact: true }).click();
        await expect(page.getByRole('status').getByText('The suggestion could not be accepted: suggestion is already accepted'));
        await expect(panel().getByText('Accepted'));
      } finally {
        await page.unroute('**/api/v1/events/stream');
      }
    });

    step('edits a draft before accepting it: the issue has the edited title', async () => {
      const { product } = await productWithCsvIssue('Drafts');
      const conversation = await importConversation(product.id, CSV_PARAPHRASE);
      const suggestion = await triage(conversation.id);
      assert.equal(suggestion.kind, 'create');
      await page.goto(`/app/inbox/${conversation.id}`);
      await expect(panel().getByText('Possible duplicates'));
      await expect(panel().getByText(CSV_ISSUE.title));
      await panel().getByRole('button', { name: 'Edit before accepting' }).click();
      const title = panel().getByLabel('Title');
      assert.equal(await title.inputValue(), CSV_PARAPHRASE.title);
      await assertAccessible(page, 'a draft edited before accepting');
      await title.fill('CSV export crashes on large reports');
      await panel().getByLabel('Priority').selectOption('high');
      await panel().getByRole('button', { name: 'Accept with these changes' }).click();
      await expect(panel().getByText(/Created/));
      const created = panel().getByRole('link', { name: /^[A-Z0-9]+-\d+$/ }).last();
      const shortcode = (await created.textContent())!;
      const issue = (await app.api('GET', `/api/v1/issues/${shortcode}`)).data;
      assert.equal(issue.title, 'CSV export crashes on large reports');
      assert.equal(issue.priority, 'high');
      assert.equal(issue.is_ai_generated, true);
      assert.deepEqual(issue.linked_conversations.map((linked: { id: string }) => linked.id), [conversation.id]);
      await created.click();
      await expect(page.getByRole('dialog', { name: shortcode }));
    });

    step('works the Triage view from the keyboard; a newly triaged conversation joins it live, one accepted elsewhere leaves', async () => {
      const { product, issue } = await productWithCsvIssue('Queue');
      const repeat = await importConversation(product.id, CSV_REPEAT);
      const unrelated = await importConversation(product.id, UNRELATED);
      const paraphrase = await importConversation(product.id, CSV_PARAPHRASE);
      const [linkSuggestion, createSuggestion, paraphraseSuggestion] = [await triage(repeat.id), await triage(unrelated.id), await triage(paraphrase.id)];

      await page.goto('/app/inbox'); // the products the app knows are loaded at its start
      await page.getByRole('link', { name: 'Triage' }).click();
      await expect(page.getByRole('heading', { name: 'Triage' }));
      await expect(page.getByText(/next \/ previous/));
      await page.getByLabel('Product').selectOption(product.id);
      const list = page.getByRole('list', { name: 'Open suggestions' });
      const rows = list.locator('.triage-row');
      const selected = list.locator('.triage-row[aria-current="true"]');
      await eventually(async () => (await rows.count()) === 3, 'the product\'s three suggestions');
      assert.match(page.url(), new RegExp(`/app/triage\\?product=${product.id}$`));
      // The keys are the list's once the focus has left the filter (a click on a row's text).
      await rows.first().locator('.triage-row-score').click();
      assert.deepEqual(await rows.locator('.triage-row-link').allTextContents(), [CSV_REPEAT.title, UNRELATED.title, CSV_PARAPHRASE.title]);
      await expect(rows.first().getByRole('link', { name: issue.shortcode }));
      await expect(rows.nth(1).getByText(`New issue “${UNRELATED.title}”`));
      await assertAccessible(page, 'the Triage view');
      assert.equal(await selected.getAttribute('data-suggestion-id'), linkSuggestion.id);

      const focusedRow = () => page.evaluate(() => document.activeElement?.closest('.triage-row')?.getAttribute('data-suggestion-id') ?? null);
      await page.keyboard.press('j');
      await eventually(async () => (await focusedRow()) === createSuggestion.id, 'J: the second row focused');
      assert.equal(await selected.getAttribute('data-suggestion-id'), createSuggestion.id);
      await page.keyboard.press('k');
      await eventually(async () => (await focusedRow()) === linkSuggestion.id, 'K: the first row again');
      await page.keyboard.press('j');
      await eventually(async () => (await focusedRow()) === createSuggestion.id, 'J: the second row again');

      await page.keyboard.press('a');
      await expectGone(list.getByText(UNRELATED.title));
      const accepted = (await suggestionsOf(unrelated.id))[0];
      assert.equal(accepted.status, 'accepted');
      assert.equal((await app.api('GET', `/api/v1/issues/${accepted.issue.id}`)).data.title, UNRELATED.title);
      await eventually(async () => (await focusedRow()) === paraphraseSuggestion.id, 'the next row selected after A');

      await page.keyboard.press('d');
      await expectGone(list.getByText(CSV_PARAPHRASE.title));
      assert.equal((await suggestionsOf(paraphrase.id))[0].status, 'dismissed');
      await eventually(async () => (await focusedRow()) === linkSuggestion.id, 'the last row left selected after D');

      const later = await importConversation(product.id, { title: 'CSV export crash again', body: CSV_REPEAT.body });
      const laterSuggestion = await triage(later.id);
      await expect(list.getByRole('link', { name: 'CSV export crash again' }));
      await page.keyboard.press('j');
      await eventually(async () => (await focusedRow()) === laterSuggestion.id, 'J: the new row');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'CSV export crash again' }));
      assert.match(page.url(), new RegExp(`/app/inbox/${later.id}$`));

      // Enter with the focus nowhere in the list opens the selected row's conversation too.
      await page.goBack();
      await expect(list.getByRole('link', { name: CSV_REPEAT.title }));
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: CSV_REPEAT.title }));

      // Accepted by someone else: it leaves the view without a reload.
      await page.goBack();
      await expect(list.getByRole('link', { name: 'CSV export crash again' }));
      await app.api('POST', `/api/v1/suggestions/${laterSuggestion.id}/accept`);
      await expectGone(list.getByRole('link', { name: 'CSV export crash again' }));
      await expect(list.getByRole('link', { name: CSV_REPEAT.title }));
    });

    step('loads the Triage view again when its event stream opens, and keeps one stream from screen to screen', async () => {
      const { product } = await productWithCsvIssue('Streams');
      const repeat = await importConversation(product.id, CSV_REPEAT);
      const unrelated = await importConversation(product.id, UNRELATED);
      const [linkSuggestion] = [await triage(repeat.id), await triage(unrelated.id)];
      let streams = 0;
      const counted = (request: { url(): string }) => void (new URL(request.url()).pathname === '/api/v1/events/stream' && streams++);
      page.on('request', counted);
      // The stream opens only once the list is on screen and a suggestion in it was accepted elsewhere:
      // that accept comes in no event, and the list learns of it by loading again as the stream opens.
      let openStream!: () => void;
      const held = new Promise<void>((resolve) => (openStream = resolve));
      await page.route('**/api/v1/events/stream', async (route) => {
        await held;
        await route.continue();
      });
      try {
        await page.goto(`/app/triage?product=${product.id}`);
        const list = page.getByRole('list', { name: 'Open suggestions' });
        await expect(list.getByRole('link', { name: CSV_REPEAT.title }));
        await app.api('POST', `/api/v1/suggestions/${linkSuggestion.id}/accept`);
        openStream();
        await expectGone(list.getByRole('link', { name: CSV_REPEAT.title }));

        // To a conversation and back (the app's own navigation): the same stream throughout.
        await list.getByRole('link', { name: UNRELATED.title }).click();
        await expect(page.getByRole('heading', { name: UNRELATED.title }));
        await page.goBack();
        await expect(list.getByRole('link', { name: UNRELATED.title }));
        assert.equal(streams, 1);
      } finally {
        page.off('request', counted);
        await page.unroute('**/api/v1/events/stream');
      }
    });

    step('shows an empty Triage view when nothing is left to triage', async () => {
      const { product } = await productWithCsvIssue('Empty');
      await page.goto(`/app/triage?product=${product.id}`);
      await expect(page.getByText('Nothing to triage'));
      await settled(page);
      await assertAccessible(page, 'the empty Triage view');
    });

    step('shows the triage setting in the product\'s settings, with the lexical classifier\'s published precision beside Auto', async () => {
      const product = (await app.api('POST', '/api/v1/products', { name: 'Calibrated' })).data;
      const { published } = lexicalModel;
      await page.goto(`/app/settings/products/${product.id}`);
      const triageSetting = page.getByRole('group', { name: 'Triage' });
      await expect(triageSetting.getByText(`link precision ${published.link_precision.toFixed(3)}, link recall ${published.link_recall.toFixed(3)}`));
      await expect(triageSetting.getByText('lexical', { exact: true }));
      assert.equal(await triageSetting.getByRole('radio', { name: 'Suggest' }).isChecked(), true);
      await triageSetting.getByRole('radio', { name: 'Auto' }).check();
      await page.getByRole('button', { name: 'Save product' }).click();
      await eventually(async () => (await app.api('GET', `/api/v1/products/${product.id}`)).data.triage === 'auto', 'the product in auto');
      await assertAccessible(page, 'the product settings with the triage setting');
    });
  });
}
