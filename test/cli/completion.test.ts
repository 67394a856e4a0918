// ldk completion bash|zsh: scripts that complete commands, options and their values, loaded into
// the real shells.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Shell, tempDir } from '../helpers/ldk.js';

const shell = new Shell();
const hasZsh = spawnSync('zsh', ['--version']).status === 0;

/** What bash completes for the words of a command line whose last word is being typed. */
function bashCompletes(script: string, words: string[]): string[] {
  const file = join(tempDir('ldk-completion-'), 'ldk.bash');
  writeFileSync(file, script);
  const driver = `source ${file}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _ldk; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--norc', '-c', driver], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  return result.stdout.split('\n').filter(Boolean);
}

/**
 * What zsh offers for a command line: the script's _ldk run with the completion system's
 * _describe and compadd replaced by functions that print what they were given.
 */
function zshCompletes(script: string, words: string[]): string[] {
  const file = join(tempDir('ldk-completion-'), '_ldk');
  writeFileSync(file, script);
  const driver = [
    'compdef() { :; }',
    '_describe() { local name=${@[-1]}; print -l -- ${(P)name}; }',
    'compadd() { local name=${@[-1]}; print -l -- ${(P)name}; }',
    `source ${file}`,
    `words=(${words.map((word) => `'${word}'`).join(' ')}); CURRENT=${words.length}; _ldk`,
  ].join('\n');
  const result = spawnSync('zsh', ['-f', '-c', driver], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  return result.stdout.split('\n').filter(Boolean);
}

describe('ldk completion', () => {
  it('bash: commands, subcommands, options and their values', async () => {
    const script = await shell.text('completion', 'bash');
    assert.match(script, /^complete -o default -F _ldk ldk$/m);
    assert.deepEqual(bashCompletes(script, ['ldk', '']), ['login', 'init', 'whoami', 'member', 'product', 'issue', 'conversation', 'contact', 'search', 'triage', 'release', 'reports', 'macros', 'mcp', 'completion']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'con']), ['conversation', 'contact']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'issue', '']), ['list', 'show', 'create', 'update', 'start', 'done', 'dismiss', 'reopen', 'assign', 'tag']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'issue', 'list', '--p']), ['--priority', '--product']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'issue', 'list', '--status', 'in']), ['in_progress']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'issue', 'done', 'APP-1', '--']), ['--comment', '--json', '--help']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'conversation', 'update', 'x', '--priority', '']), ['low', 'normal', 'high', 'urgent']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'search', 'x', '--type', 'con']), ['conversation', 'contact']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'macros', '']), ['list', 'run']);
    assert.deepEqual(bashCompletes(script, ['ldk', 'completion', '']), ['bash', 'zsh']);
  });

  // CI installs zsh (.ci/run), so there a missing zsh fails the test instead of skipping it.
  const ci = process.env.CI !== undefined && !['false', '0'].includes(process.env.CI);
  it('zsh: completes the same, with descriptions', { skip: !hasZsh && !ci && 'zsh is not installed' }, async () => {
    const script = await shell.text('completion', 'zsh');
    assert.deepEqual(zshCompletes(script, ['ldk', 'issue', '']).slice(0, 2), ['list:list issues, newest first', 'show:show an issue with its linked conversations']);
    assert.ok(zshCompletes(script, ['ldk', 'release', 'create', '--']).includes('--all-done:ship every done issue of the product'));
    assert.deepEqual(zshCompletes(script, ['ldk', 'issue', 'list', '--status', '']), ['pending', 'in_progress', 'icebox', 'done', 'released', 'dismissed']);
    assert.deepEqual(zshCompletes(script, ['ldk', 'completion', '']), ['bash', 'zsh']);
  });

  it('zsh: a compdef script sharing its data functions with bash', async () => {
    const script = await shell.text('completion', 'zsh');
    assert.match(script, /^#compdef ldk$/m);
    assert.match(script, /^compdef _ldk ldk$/m);
    assert.match(script, /'issue'\) printf '%s\\n' 'list:list issues, newest first'/);
    assert.match(script, /'issue list --status'\) printf '%s\\n' 'pending' 'in_progress'/);
  });
});
