// ldk issue …: every command against a real server, as text for people and as the API's body
// with --json; shortcodes wherever an issue is named; the deduplicating create by default.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIssue, createProduct } from '../helpers/factories.js';
import { type ListeningContext, listeningContext, type Shell } from '../helpers/ldk.js';

/** The cells of a table's rows, cut at the offsets where its header's columns start. */
function tableRows(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n').filter((line) => !line.startsWith('Showing'));
  const starts = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0], at: match.index }));
  return rows.map((row) =>
    Object.fromEntries(starts.map(({ name, at }, i) => {
      assert.ok(i === 0 || row[at - 1] === ' ', `column ${name} starts at the same place in\n${header}\n${row}`);
      return [name, row.slice(at, starts[i + 1]?.at).trim()];
    })),
  );
}

describe('ldk issue', () => {
  let server: ListeningContext;
  let shell: Shell;
  let product: any;
  before(async () => {
    server = await listeningContext('sqlite');
    product = await createProduct(server.a.api, { name: 'Issue Tracker', issue_prefix: 'IT' });
    shell = server.shell(server.a.key);
    await shell.text('init', '--product', product.slug);
  });
  after(() => server.close());

  const apiIssue = async (ref: string) => (await server.a.api.get(`/api/v1/issues/${ref}`)).body.data;

  describe('create', () => {
    it('files through the deduplicating create; the same title again says it matched', async () => {
      const first = await shell.text('issue', 'create', 'Export to CSV drops accents');
      assert.equal(first, 'Created IT-1 "Export to CSV drops accents": pending, normal, unassigned (no open issue matched).\n');
      const second = await shell.text('issue', 'create', 'Export to CSV drops accents');
      assert.equal(
        second,
        'Matched the existing issue IT-1 "Export to CSV drops accents": pending, normal, unassigned.\n' +
          'Your report was added to its sources (2 in all); nothing new was created.\n',
      );
      const third = await shell.json('issue', 'create', 'Export to CSV drops accents');
      assert.equal(third.matched_existing, true);
      assert.equal(third.data.shortcode, 'IT-1');
      assert.equal(third.data.sources_count, 3);
      assert.match(third.api_source_id, /^[0-9a-f-]{36}$/);
    });

    it('--no-dedup creates with POST /issues, duplicate or not', async () => {
      const body = await shell.json('issue', 'create', 'Export to CSV drops accents', '--no-dedup');
      assert.deepEqual(Object.keys(body), ['data']);
      assert.equal(body.data.shortcode, 'IT-2');
      assert.equal(body.data.sources_count, 0);
    });

    it('takes a description, priority, status, assignee and a conversation to link', async () => {
      const conversation = (await server.a.api.post('/api/v1/conversations', { product_id: product.id, title: 'Dark mode please' })).body.data;
      const body = await shell.json('issue', 'create', 'Dark mode', '-d', 'The app is too bright at night', '--priority', 'high',
        '--status', 'icebox', '--assignee', 'me', '--conversation', conversation.id);
      assert.equal(body.matched_existing, false);
      assert.deepEqual(
        { description: body.data.description, priority: body.data.priority, status: body.data.status, assignee: body.data.assignee_id },
        { description: 'The app is too bright at night', priority: 'high', status: 'icebox', assignee: server.a.owner.id },
      );
      assert.deepEqual(body.data.linked_conversations.map((linked: any) => linked.id), [conversation.id]);
    });

    it('refuses --conversation with --no-dedup (exit 2)', async () => {
      const result = await shell.run('issue', 'create', 'T', '--no-dedup', '--conversation', '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091');
      assert.equal(result.code, 2);
      assert.match(result.stderr, /cannot be used with/);
    });
  });

  describe('list', () => {
    it('prints an aligned table of the folder\'s product, newest first, with relative times', async () => {
      const rows = tableRows(await shell.text('issue', 'list'));
      assert.deepEqual(rows.map((row) => row.ISSUE), ['IT-3', 'IT-2', 'IT-1']);
      assert.deepEqual(rows[0], {
        ISSUE: 'IT-3', STATUS: 'icebox', PRIORITY: 'high', ASSIGNEE: 'Alpha Owner', UPDATED: 'just now', TITLE: 'Dark mode',
      });
      assert.equal(rows[2].ASSIGNEE, '—');
      assert.match(await shell.text('issue', 'list'), /^Showing 1–3 of 3$/m);
    });

    it('filters by status, priority and assignee, and pages', async () => {
      const filtered = await shell.json('issue', 'list', '--status', 'icebox,pending', '--priority', 'high', '--assignee', 'me');
      assert.deepEqual(filtered.data.map((issue: any) => issue.shortcode), ['IT-3']);
      const unassigned = await shell.json('issue', 'list', '--assignee', 'none');
      assert.deepEqual(unassigned.data.map((issue: any) => issue.shortcode), ['IT-2', 'IT-1']);
      const page = await shell.text('issue', 'list', '--limit', '1', '--offset', '1');
      assert.deepEqual(tableRows(page).map((row) => row.ISSUE), ['IT-2']);
      assert.match(page, /^Showing 2–2 of 3 · next page: --offset 2$/m);
    });

    it('--json prints the API\'s answer unchanged', async () => {
      const body = await shell.json('issue', 'list', '--status', 'pending', '--limit', '2');
      const direct = await server.a.api.get(`/api/v1/issues?product_id=${product.id}&status=pending&limit=2`);
      assert.deepEqual(body, direct.body);
    });

    it('--product overrides the folder\'s product; says when nothing is found', async () => {
      const other = await createProduct(server.a.api);
      assert.equal(await shell.text('issue', 'list', '--product', other.id), 'Nothing found.\n');
    });
  });

  describe('show', () => {
    it('finds an issue by shortcode, in any case, or UUID', async () => {
      const issue = await apiIssue('IT-1');
      assert.deepEqual(await shell.json('issue', 'show', 'it-1'), { data: issue });
      assert.deepEqual(await shell.json('issue', 'show', issue.id), { data: issue });
    });

    it('prints the issue\'s facts, description and linked conversations', async () => {
      const out = await shell.text('issue', 'show', 'IT-3');
      assert.match(out, /^IT-3  Dark mode\n\nstatus +icebox\npriority +high\nassignee +Alpha Owner\n/);
      assert.match(out, /^sources +1$/m);
      assert.match(out, /^The app is too bright at night$/m);
      assert.match(out, /^CONVERSATION +STATUS +TYPE +TITLE\n\S+ +open +ticket +Dark mode please$/m);
    });

    it('an unknown issue: the API\'s detail, exit 1', async () => {
      const result = await shell.run('issue', 'show', 'IT-99');
      assert.deepEqual(result, { code: 1, stdout: '', stderr: 'error: issue not found\n' });
    });
  });

  describe('working an issue', () => {
    let issue: any;
    before(async () => {
      issue = await createIssue(server.a.api, product.id, { title: 'Crash on launch' });
    });

    it('start: in_progress, assigned to me when nobody has it', async () => {
      assert.equal(await shell.text('issue', 'start', issue.shortcode), `Started ${issue.shortcode} "Crash on launch": in_progress, normal, assigned to Alpha Owner.\n`);
      assert.deepEqual(await pick(issue.shortcode), { status: 'in_progress', assignee_id: server.a.owner.id });
    });

    it('start leaves someone else\'s issue with them', async () => {
      const memberless = server.shell(server.a.memberlessKey);
      await server.a.api.patch(`/api/v1/issues/${issue.id}`, { status: 'pending' });
      const body = await memberless.json('issue', 'start', issue.shortcode.toLowerCase());
      assert.equal(body.data.status, 'in_progress');
      assert.equal(body.data.assignee_id, server.a.owner.id);
    });

    it('start with a key without a member: in_progress, still unassigned', async () => {
      const other = await createIssue(server.a.api, product.id);
      const body = await server.shell(server.a.memberlessKey).json('issue', 'start', other.shortcode);
      assert.deepEqual({ status: body.data.status, assignee_id: body.data.assignee_id }, { status: 'in_progress', assignee_id: null });
    });

    it('done --comment: done, with the resolution', async () => {
      const out = await shell.text('issue', 'done', issue.shortcode, '--comment', 'Fixed the null check');
      assert.equal(out, `Finished ${issue.shortcode} "Crash on launch": done, normal, assigned to Alpha Owner.\nresolution  Fixed the null check\n`);
      assert.deepEqual(await pick(issue.shortcode, 'status', 'resolution_comment'), { status: 'done', resolution_comment: 'Fixed the null check' });
      assert.deepEqual(await shell.json('issue', 'done', issue.shortcode), { data: await apiIssue(issue.shortcode) });
    });

    it('reopen: pending again; dismiss: dismissed, with an optional comment', async () => {
      assert.equal(await shell.text('issue', 'reopen', issue.shortcode), `Reopened ${issue.shortcode} "Crash on launch": pending, normal, assigned to Alpha Owner.\n`);
      assert.equal((await shell.json('issue', 'reopen', issue.shortcode)).data.status, 'pending');
      const dismissed = await shell.json('issue', 'dismiss', issue.shortcode, '--comment', 'Cannot reproduce');
      assert.deepEqual({ status: dismissed.data.status, resolution_comment: dismissed.data.resolution_comment }, { status: 'dismissed', resolution_comment: 'Cannot reproduce' });
    });

    it('assign: a member id, me, or none', async () => {
      assert.equal(await shell.text('issue', 'assign', issue.shortcode, 'none'), `${issue.shortcode} "Crash on launch": dismissed, normal, unassigned.\n`);
      assert.equal((await shell.json('issue', 'assign', issue.shortcode, server.a.owner.id)).data.assignee_id, server.a.owner.id);
      await shell.text('issue', 'assign', issue.shortcode, 'none');
      assert.equal((await shell.json('issue', 'assign', issue.shortcode, 'me')).data.assignee_id, server.a.owner.id);
      const stranger = await shell.run('issue', 'assign', issue.shortcode, server.b.owner.id);
      assert.equal(stranger.code, 1);
      assert.match(stranger.stderr, /^error: .*assignee_id/);
    });

    it('update: title, description, priority and status; nothing to update is a usage error', async () => {
      const body = await shell.json('issue', 'update', issue.shortcode, '--title', 'Crash on cold launch', '-d', 'Android 14', '--priority', 'urgent', '--status', 'pending');
      assert.deepEqual(
        { title: body.data.title, description: body.data.description, priority: body.data.priority, status: body.data.status },
        { title: 'Crash on cold launch', description: 'Android 14', priority: 'urgent', status: 'pending' },
      );
      assert.equal((await shell.json('issue', 'update', issue.shortcode, '-d', '')).data.description, null);
      assert.equal(await shell.text('issue', 'update', issue.shortcode, '--priority', 'low'), `Updated ${issue.shortcode} "Crash on cold launch": pending, low, assigned to Alpha Owner.\n`);
      const nothing = await shell.run('issue', 'update', issue.shortcode);
      assert.deepEqual(nothing, { code: 2, stdout: '', stderr: 'error: nothing to update: pass --title, --description, --priority or --status\n' });
    });

    it('a read-only key cannot write: the API\'s detail, exit 1, nothing changed', async () => {
      const before = await apiIssue(issue.shortcode);
      const readOnly = server.shell(server.a.readOnlyKey);
      for (const args of [['issue', 'start', issue.shortcode], ['issue', 'done', issue.shortcode], ['issue', 'create', 'Read-only report', '--product', product.id]]) {
        const result = await readOnly.run(...args);
        assert.equal(result.code, 1, args.join(' '));
        assert.equal(result.stderr, 'error: this API key is read-only: only GET requests are allowed\n', args.join(' '));
      }
      const json = await readOnly.run('issue', 'reopen', issue.shortcode, '--json');
      assert.deepEqual(JSON.parse(json.stdout), { error_code: 'forbidden', detail: 'this API key is read-only: only GET requests are allowed' });
      assert.deepEqual(await apiIssue(issue.shortcode), before);
      assert.equal((await readOnly.json('issue', 'show', issue.shortcode)).data.id, issue.id);
    });

    async function pick(ref: string, ...names: string[]) {
      const current = await apiIssue(ref);
      const keys = names.length > 0 ? names : ['status', 'assignee_id'];
      return Object.fromEntries(keys.map((key) => [key, current[key]]));
    }
  });
});
