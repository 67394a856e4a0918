// Automation in the app (docs/app.md, "Automation and macros"), in a real browser against a real
// server on each database: a rule built through the form (two conditions, two actions; the
// server's errors shown in the rows they name) fires on a new conversation and its run shows in
// the list, which also toggles and reorders; a macro built in Settings runs from the conversation's
// Macros menu and by its key, updating the conversation in place, and a failing one says why; an
// agent reaches the macros alone; axe-clean at 1280×800 and 390×844.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { acceptInvitation, closeAppPage, openAppPage, settled, signIn, type AppPage } from '../helpers/app-server.js';
import { appContext, assertAccessible, withScreenshots } from '../helpers/browser.js';
import { eventually, expect, expectGone } from '../helpers/browser-expect.js';
import { DIALECTS } from '../helpers/databases.js';

for (const dialect of DIALECTS) {
  describe(`automation in the app [${dialect}]`, () => {
    let opened: AppPage;
    let page: Page;
    let product: { id: string };
    const contexts: BrowserContext[] = [];
    const step = (name: string, body: () => Promise<void>) =>
      it(name, () => withScreenshots(`${dialect} automation ${name}`, () => [page, ...contexts.flatMap((context) => context.pages())], body));

    const api = (method: string, path: string, body?: unknown) => opened.app.api(method, path, body);
    const conversation = async (title: string, type = 'ticket') =>
      (await api('POST', '/api/v1/conversations', { product_id: product.id, title, type, body: 'Hello, something is wrong.' })).data as { id: string };
    const row = (name: string) => page.getByRole('group', { name, exact: true });
    const select = (scope: Page | Locator, label: string, option: string) => scope.getByLabel(label, { exact: true }).selectOption({ label: option });
    const addTag = async (scope: Locator, tag: string) => {
      await scope.getByLabel('Add a tag').fill(tag);
      await scope.getByLabel('Add a tag').press('Enter');
    };
    const openConversation = async (id: string, title: string) => {
      await page.goto(`/app/inbox/${id}`);
      await expect(page.getByRole('heading', { name: title }));
      await settled(page);
    };
    const statusShown = () => page.getByRole('combobox', { name: 'Status', exact: true }).inputValue();

    before(async () => {
      opened = await openAppPage(dialect);
      page = opened.page;
      product = (await api('POST', '/api/v1/products', { name: 'Acme', triage: 'off' })).data;
    });
    after(async () => {
      for (const context of contexts) await context.close();
      await closeAppPage(opened);
    });

    step('builds a rule with two conditions and two actions; errors show in their rows; it fires on a new conversation', async () => {
      await page.goto('/app/settings/automation');
      await page.getByRole('button', { name: 'New rule' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Urgent refunds');
      await select(page, 'When', 'A conversation is created');

      await page.getByRole('button', { name: 'Add a condition' }).click();
      await select(row('Condition 1'), 'Field', 'Title');
      await select(row('Condition 1'), 'Operator', 'matches the pattern');
      await row('Condition 1').getByLabel('Pattern').fill('^(a+)+$');
      await page.getByRole('button', { name: 'Add a condition' }).click();
      await select(row('Condition 2'), 'Field', 'Type');
      await select(row('Condition 2'), 'Operator', 'is any of');
      await row('Condition 2').getByRole('checkbox', { name: 'Ticket' }).check();
      await row('Condition 2').getByRole('checkbox', { name: 'Chat' }).check();

      await addTag(row('Action 1'), 'refund');
      await page.getByRole('button', { name: 'Add an action' }).click();
      await select(row('Action 2'), 'Action', 'Add an internal note');
      await page.getByRole('button', { name: 'Create rule' }).click();
      // The server names conditions[0].value and actions[1].body: each error shows in its row.
      await expect(row('Condition 1').getByText(/exponential/));
      await expect(row('Action 2').getByText('must be a text that is not blank'));
      assert.equal(await row('Action 1').locator('.field-error').count(), 0);
      await assertAccessible(page, 'the rule form with errors at 1280×800');
      // An error stays with its row when the row moves.
      await page.getByRole('button', { name: 'Up (Action 2)' }).click();
      await expect(row('Action 1').getByText('must be a text that is not blank'));
      assert.equal(await row('Action 2').locator('.field-error').count(), 0);
      await page.getByRole('button', { name: 'Down (Action 1)' }).click();

      await select(row('Condition 1'), 'Operator', 'contains');
      await row('Condition 1').getByLabel('Text').fill('refund');
      await select(row('Action 2'), 'Action', 'Set priority');
      await select(row('Action 2'), 'Priority', 'Urgent');
      await page.getByRole('button', { name: 'Create rule' }).click();
      await expect(page.getByRole('table', { name: 'Automation rules' }).getByRole('link', { name: 'Urgent refunds' }));
      const [rule] = (await api('GET', '/api/v1/automation-rules')).data;
      assert.deepEqual(
        { event: rule.event, conditions: rule.conditions, actions: rule.actions },
        {
          event: 'conversation.created',
          conditions: [{ field: 'title', operator: 'contains', value: 'refund' }, { field: 'type', operator: 'in', value: ['ticket', 'chat'] }],
          actions: [{ type: 'add_tags', tags: ['refund'] }, { type: 'set_priority', priority: 'urgent' }],
        },
      );

      // Jobs run oldest first: once the matching one is done, the other has been looked at too.
      const other = await conversation('Login loops');
      const refund = await conversation('Refund for order 42');
      await eventually(async () => (await api('GET', `/api/v1/conversations/${refund.id}`)).data.priority === 'urgent', 'the rule ran');
      const [ruled, untouched] = await Promise.all([refund, other].map(async ({ id }) => (await api('GET', `/api/v1/conversations/${id}`)).data));
      assert.deepEqual([ruled.tags, ruled.priority], [['refund'], 'urgent']);
      assert.deepEqual([untouched.tags, untouched.priority], [[], 'normal']);

      await page.reload();
      const ruleRow = page.getByRole('row', { name: /Urgent refunds/ });
      await expect(ruleRow.getByRole('cell', { name: '1', exact: true }).nth(1));
      await expect(ruleRow.getByText('just now'));
      await assertAccessible(page, 'the rules list at 1280×800');
    });

    step('the list toggles a rule and moves it in the order', async () => {
      await api('POST', '/api/v1/automation-rules', { name: 'Tag chats', event: 'message.created', actions: [{ type: 'add_tags', tags: ['chat'] }] });
      await page.reload();
      await page.getByRole('checkbox', { name: 'Active: Urgent refunds' }).uncheck();
      await eventually(async () => (await api('GET', '/api/v1/automation-rules')).data[0].active === false, 'paused');
      await page.getByRole('button', { name: 'Up (Tag chats)' }).click();
      await eventually(async () => (await api('GET', '/api/v1/automation-rules')).data.map((one: { name: string }) => one.name).join() === 'Tag chats,Urgent refunds', 'moved up');
      await expect(page.getByRole('button', { name: 'Up (Tag chats)', disabled: true }));
      assert.equal(await page.getByRole('checkbox', { name: 'Active: Urgent refunds' }).isChecked(), false);
    });

    step('creates a macro in Settings and runs it from the Macros menu and by the key, in place', async () => {
      await page.goto('/app/settings/macros');
      await page.getByRole('button', { name: 'New macro' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Close as duplicate');
      await addTag(row('Action 1'), 'duplicate');
      await page.getByRole('button', { name: 'Add an action' }).click();
      await select(row('Action 2'), 'Action', 'Set status');
      await select(row('Action 2'), 'Status', 'Resolved');
      await page.getByRole('button', { name: 'Add an action' }).click();
      await select(row('Action 3'), 'Action', 'Add an internal note');
      await row('Action 3').getByLabel('Note').fill('Closed as a duplicate.');
      await page.getByRole('button', { name: 'Down (Action 2)' }).click();
      await page.getByRole('button', { name: 'Create macro' }).click();
      await expect(page.getByRole('table', { name: 'Macros' }).getByRole('link', { name: 'Close as duplicate' }));
      const [macro] = (await api('GET', '/api/v1/macros')).data;
      assert.deepEqual(macro.actions.map((one: { type: string }) => one.type), ['add_tags', 'add_note', 'set_status']);

      const first = await conversation('Duplicate of the CSV bug');
      await openConversation(first.id, 'Duplicate of the CSV bug');
      await page.getByRole('button', { name: /^Macros/ }).click();
      await page.getByRole('dialog', { name: 'Run a macro' }).getByRole('button', { name: /Close as duplicate/ }).click();
      await expectGone(page.getByRole('dialog', { name: 'Run a macro' }));
      await eventually(async () => (await statusShown()) === 'resolved', 'the status shown is the macro\'s');
      await expect(page.getByRole('group', { name: 'Conversation tags' }).getByText('duplicate'));
      await expect(page.getByText('Closed as a duplicate.'));

      const second = await conversation('Another duplicate');
      await openConversation(second.id, 'Another duplicate');
      await page.getByRole('heading', { name: 'Another duplicate' }).click();
      await page.keyboard.press('.');
      await expect(page.getByRole('dialog', { name: 'Run a macro' }));
      await assertAccessible(page, 'the Macros menu at 1280×800');
      await page.keyboard.press('Enter');
      await eventually(async () => (await statusShown()) === 'resolved', 'the macro ran by its key');
      assert.equal((await api('GET', `/api/v1/conversations/${second.id}`)).data.status, 'resolved');
    });

    step('a macro that no longer fits changes nothing and says why in the menu', async () => {
      const reply = (await api('POST', '/api/v1/saved-replies', { title: 'Thanks', body: 'Thanks for writing.' })).data;
      await api('POST', '/api/v1/macros', { name: 'Thank and close', actions: [{ type: 'set_status', status: 'resolved' }, { type: 'reply', saved_reply_id: reply.id }] });
      await api('DELETE', `/api/v1/saved-replies/${reply.id}`);
      const target = await conversation('Please thank me');
      await openConversation(target.id, 'Please thank me');
      await page.getByRole('button', { name: /^Macros/ }).click();
      await page.getByRole('dialog', { name: 'Run a macro' }).getByRole('button', { name: /Thank and close/ }).click();
      await expect(page.getByRole('dialog', { name: 'Run a macro' }).getByRole('alert').getByText('The macro did not run: action 2 is no longer a saved reply of this workspace'));
      assert.equal(await statusShown(), 'open');
      assert.equal((await api('GET', `/api/v1/conversations/${target.id}`)).data.status, 'open');
    });

    step('an agent, who has no Settings, reaches Settings → Macros alone', async () => {
      const context = await appContext(opened.browser, opened.app.baseUrl);
      contexts.push(context);
      const agent = await context.newPage();
      agent.setDefaultTimeout(10_000);
      const invitation = await api('POST', '/api/v1/members/invitations', { email: 'ada@example.com', role: 'agent' });
      await acceptInvitation(agent, invitation.data.url, 'Ada Agent');
      await agent.goto('/app/settings/macros');
      await expect(agent.getByRole('table', { name: 'Macros' }).getByRole('link', { name: 'Close as duplicate' }));
      assert.equal(await agent.getByRole('link', { name: 'Automation' }).count(), 0);
      await agent.goto('/app/settings/automation');
      await expect(agent.getByText('Settings are for owners and admins'));
    });

    step('the rule form, the lists and the Macros menu pass axe at 390×844', async () => {
      const context = await appContext(opened.browser, opened.app.baseUrl, 'phone');
      contexts.push(context);
      const phone = await context.newPage();
      phone.setDefaultTimeout(10_000);
      await signIn(phone, 'grace@example.com');
      const rule = (await api('GET', '/api/v1/automation-rules')).data.find((one: { name: string }) => one.name === 'Urgent refunds');
      for (const screen of ['/app/settings/automation', '/app/settings/macros', `/app/settings/automation/${rule.id}`]) {
        await phone.goto(screen);
        await settled(phone);
        await assertAccessible(phone, `${screen} at 390×844`);
      }
      // The saved rule comes back into its rows.
      assert.equal(await phone.getByRole('group', { name: 'Condition 2' }).getByRole('checkbox', { name: 'Chat' }).isChecked(), true);
      assert.equal(await phone.getByRole('group', { name: 'Condition 1' }).getByLabel('Text').inputValue(), 'refund');
      const { id } = await conversation('Seen on a phone');
      await phone.goto(`/app/inbox/${id}`);
      await settled(phone);
      await phone.getByRole('button', { name: /^Macros/ }).click();
      await expect(phone.getByRole('dialog', { name: 'Run a macro' }).getByRole('button', { name: /Close as duplicate/ }));
      await assertAccessible(phone, 'the Macros menu at 390×844');
    });
  });
}
