// `npm run eval:summaries [-- --json OUT]`: the built-in summarizer and triage's draft titles measured
// on test/fixtures/summaries/messages.json (60 support messages in English, Spanish and German with
// reference summaries and titles; docs/triage.md "Summaries"). Printed per language and overall:
// ROUGE-L of the summaries and of the titles against the references, the share of summaries that
// keep every number and error code of the reference, for messages under 300 characters the share
// whose summary is the whole message again and the share of their words the summary keeps, and
// the share of titles over 80 characters.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { titleFromBody } from '../../domain/widget/visitor.shapes.js';
import { extractiveSummary } from '../extractive.js';
import { lengthOf } from '../sentences.js';
import { issueTitle } from '../title.js';
import { keepsCodes, rougeL, tokensOf } from './rouge.js';

const FIXTURE = new URL('../../../test/fixtures/summaries/messages.json', import.meta.url);
const SHORT = 300;
const TITLE_MAX = 80;

interface Message {
  id: string;
  language: string;
  /** The conversation's title when it did not come from the body (an email's subject). */
  subject: string | null;
  body: string;
  summary: string;
  title: string;
}

interface Outcome {
  message: Message;
  summary: string;
  title: string;
}

/** What Loopdesk makes of a message without a chat model: the summary job's summary and triage's draft title. */
async function outcomeOf(message: Message, backlog: Record<string, string[]>): Promise<Outcome> {
  const summary = (await extractiveSummary([message.body], { vocabulary: backlog[message.language] })) ?? '';
  const title = (await issueTitle({ title: message.subject ?? titleFromBody(message.body), text: message.body })) ?? '';
  return { message, summary, title };
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
const share = (outcomes: readonly Outcome[], test: (outcome: Outcome) => boolean) => mean(outcomes.map((outcome) => (test(outcome) ? 1 : 0)));
const sameWords = (a: string, b: string) => tokensOf(a).join(' ') === tokensOf(b).join(' ');

function figures(outcomes: readonly Outcome[]) {
  const short = outcomes.filter(({ message }) => lengthOf(message.body) < SHORT);
  return {
    messages: outcomes.length,
    summaryRougeL: mean(outcomes.map(({ summary, message }) => rougeL(summary, message.summary))),
    keepsEveryCode: share(outcomes, ({ summary, message }) => keepsCodes(summary, message.summary)),
    shortRepeated: share(short, ({ summary, message }) => sameWords(summary, message.body)),
    shortWordsKept: mean(short.map(({ summary, message }) => tokensOf(summary).length / tokensOf(message.body).length)),
    titleRougeL: mean(outcomes.map(({ title, message }) => rougeL(title, message.title))),
    titlesOver80: share(outcomes, ({ title }) => lengthOf(title) > TITLE_MAX),
  };
}

const { values } = parseArgs({ options: { json: { type: 'string' } } });
const { messages, backlog } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { messages: Message[]; backlog: Record<string, string[]> };
const outcomes = await Promise.all(messages.map((message) => outcomeOf(message, backlog)));
const groups = [...new Set(messages.map((message) => message.language)), 'all'];
const rows = groups.map((language) => ({ language, ...figures(outcomes.filter(({ message }) => language === 'all' || message.language === language)) }));

const percent = (value: number) => `${(100 * value).toFixed(0)} %`;
console.log('language  messages  summary ROUGE-L  keeps every code  short ones repeated  short ones: words kept  title ROUGE-L  titles > 80');
for (const row of rows) {
  console.log([
    row.language.padEnd(8), String(row.messages).padStart(8), row.summaryRougeL.toFixed(3).padStart(15), percent(row.keepsEveryCode).padStart(16),
    percent(row.shortRepeated).padStart(19), percent(row.shortWordsKept).padStart(22), row.titleRougeL.toFixed(3).padStart(13), percent(row.titlesOver80).padStart(11),
  ].join('  '));
}
if (values.json) {
  writeFileSync(values.json, `${JSON.stringify({ rows, outcomes: outcomes.map(({ message, summary, title }) => ({ id: message.id, summary, title })) }, null, 2)}\n`);
}
