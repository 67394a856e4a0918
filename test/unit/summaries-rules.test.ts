// The rules that make a summary and a draft title say something (docs/triage.md, "Summaries"):
// greetings, thanks, sign-offs, pleasantries and quoted replies dropped in each language; sentences
// with specifics (error codes, numbers, versions, devices, the product's words) preferred; a short
// message never given back whole when something of it can go; an issue title of at most 80
// characters, without a greeting, that is not the message's first line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractiveSummary, rankedSentences } from '../../src/summaries/extractive.js';
import { sentencesOf } from '../../src/summaries/sentences.js';
import { errorCodesOf } from '../../src/summaries/specifics.js';
import { ISSUE_TITLE_MAX, issueTitle } from '../../src/summaries/title.js';

const GREETINGS = /^(?:hi|hello|hey|dear|hola|buenas|buenos|estimad|hallo|guten|moin|liebe|sehr geehrte|bonjour|olá|ciao)\b/iu;
const summaryOf = async (text: string, options = {}) => (await extractiveSummary([text], options))!;
/** Folded words, to compare a summary with the message it came from. */
const words = (text: string) => text.toLowerCase().replace(/[\p{P}\p{S}\s]+/gu, ' ').trim();

describe('summaries drop what says nothing about the problem', () => {
  const cases: Array<[string, string, RegExp, RegExp]> = [
    ['English', "Hi, since this morning I can't log in with Google. I get a 403 error and the whole team is locked out. Thanks!",
      /^Since this morning I can't log in with Google\. I get a 403 error and the whole team is locked out\.$/, /Hi|Thanks/],
    ['English, greeting and sign-off lines', 'Hello team,\n\nI hope you are doing well.\nThe invoice PDF shows the wrong VAT rate of 19%.\n\nBest regards,\nAna Torres\nAcme Logistics',
      /^The invoice PDF shows the wrong VAT rate of 19%\.$/, /Hello|hope|regards|Ana|Acme/],
    ['Spanish', 'Hola, buenos días. Desde ayer no puedo iniciar sesión: me sale el error 401. Muchas gracias de antemano.\nSaludos,\nLucía',
      /^Desde ayer no puedo iniciar sesión: me sale el error 401\.$/, /Hola|gracias|Saludos|Lucía/],
    ['German', 'Hallo zusammen,\n\nseit heute Morgen schlägt die Anmeldung mit "AADSTS50011" fehl. Vielen Dank im Voraus!\n\nViele Grüße\nStefan',
      /^Seit heute Morgen schlägt die Anmeldung mit "AADSTS50011" fehl\.$/, /Hallo|Dank|Grüße|Stefan/],
    ['German, a formal letter', 'Sehr geehrte Damen und Herren,\nunsere Rechnung 2024-117 wurde doppelt abgebucht.\nMit freundlichen Grüßen\nJonas Weber',
      /^Unsere Rechnung 2024-117 wurde doppelt abgebucht\.$/, /geehrte|Grüßen|Jonas/],
    ['French', 'Bonjour, l\'export PDF échoue avec une erreur 500 depuis la version 4.2. Merci beaucoup. Cordialement, Claire',
      /^L'export PDF échoue avec une erreur 500 depuis la version 4\.2\.$/, /Bonjour|Merci|Cordialement/],
  ];
  for (const [language, message, kept, dropped] of cases) {
    it(`drops greetings, thanks and sign-offs in ${language}`, async () => {
      const summary = await summaryOf(message);
      assert.match(summary, kept);
      assert.doesNotMatch(summary, dropped);
    });
  }

  it('drops a greeting before the point and the request to look into it, and capitalizes what is left', async () => {
    assert.equal(await summaryOf('Hi Maria, the password reset email never arrives for @outlook.com addresses. Could you please look into it?'),
      'The password reset email never arrives for @outlook.com addresses.');
    assert.equal(await summaryOf('Buenas, en mi Xiaomi con Android 13 las notificaciones no llegan. ¿Me pueden ayudar?'),
      'En mi Xiaomi con Android 13 las notificaciones no llegan.');
    assert.equal(await summaryOf('Guten Morgen, auf dem iPad Air springt das Antwortfeld nach oben. Können Sie bitte helfen?'),
      'Auf dem iPad Air springt das Antwortfeld nach oben.');
  });

  it('keeps the clause after a thanks when it carries the point, and drops filler openers', async () => {
    assert.equal(await summaryOf('Danke für die Rückmeldung, aber das Widget wird auf der Shopseite immer noch nicht angezeigt.'),
      'Das Widget wird auf der Shopseite immer noch nicht angezeigt.');
    assert.equal(await summaryOf('Thanks for the reply. Unfortunately the sync still stops at 87% with ERR_SYNC_TIMEOUT.'),
      'The sync still stops at 87% with ERR_SYNC_TIMEOUT.');
  });

  it('leaves out the quoted history of a reply and a forwarded original, in each language', async () => {
    const replies = [
      'Still broken: the sync stops at 87%.\n\nOn Tue, May 14, 2024 at 9:12 AM Support <support@example.com> wrote:\n> Hi Dana, we deployed a fix. Could you try again?',
      'Sigue sin funcionar: el widget muestra "Error de red".\n\nEl jue, 6 jun 2024 a las 11:20, Soporte <soporte@example.com> escribió:\n> Hola Carlos, hemos corregido un problema en el servidor.',
      'Der Export bricht bei 50 % ab.\n\nAm 12.06.2024 um 14:03 schrieb Support <support@example.com>:\n> Hallo Herr Braun, bitte versuchen Sie den Export erneut.',
      'El informe de abril muestra 0 conversaciones.\n\n----- Mensaje original -----\nDe: Paula\nAsunto: Informe vacío\n\nHola, el informe de marzo aparece vacío.',
    ];
    for (const reply of replies) {
      const summary = await summaryOf(reply);
      assert.equal(summary, reply.split('\n')[0], summary);
    }
  });

  it('keeps a message of nothing but thanks or emoji as it is, and nothing for blank text', async () => {
    assert.equal(await summaryOf('Thanks!'), 'Thanks!');
    assert.equal(await summaryOf('🔥🔥🔥'), '🔥🔥🔥');
    assert.equal(await extractiveSummary(['\n  ']), null);
  });
});

describe('summaries prefer sentences with specifics', () => {
  const filler = 'We have used the product for two years and the team likes the inbox a lot, the way conversations are organized is great for us.';

  it('keeps the error code, the version and the device over general sentences in a long message', async () => {
    const message = [
      filler,
      'The team uses the inbox every day and the conversations keep the team organized.',
      'Since version 3.8.1 the app shows a blank screen on a Samsung Galaxy S22 with Android 14.',
      'The team likes the inbox and the way the team shares conversations.',
      'Exporting conversations fails with error 502 for the whole team.',
    ].join(' ');
    assert.ok(message.length > 300);
    const summary = await summaryOf(message);
    for (const specific of ['3.8.1', 'Galaxy S22', 'Android 14', '502']) assert.ok(summary.includes(specific), `${specific} in ${summary}`);
  });

  it('prefers a sentence with words of the product\'s open issues', async () => {
    const message = 'The dashboard looks different since Monday. The calendar sync copies every meeting. The colors changed too.';
    const best = async (vocabulary: string[]) => (await rankedSentences([message], { vocabulary }))[0].text;
    assert.equal(await best([]), 'The dashboard looks different since Monday.');
    assert.equal(await best(['Calendar sync creates duplicate meetings', 'Sync stops on mobile']), 'The calendar sync copies every meeting.');
  });

  it('tells error codes from other numbers', () => {
    assert.deepEqual(errorCodesOf('I get a 403 error since version 4.2'), ['403']);
    assert.deepEqual(errorCodesOf('Two charges of $540 each on March 3rd'), []);
    assert.deepEqual(errorCodesOf('Webhooks fail with 502, the log says ERR_SYNC_TIMEOUT and AADSTS50011 (0x80070005)'), ['502', 'ERR_SYNC_TIMEOUT', 'AADSTS50011', '0x80070005']);
    assert.deepEqual(errorCodesOf('Windows 11 23H2 on a Galaxy A54'), []);
  });
});

describe('summaries of short messages', () => {
  it('never give back a short message whole when one of its sentences can go', async () => {
    const message = 'The export to Excel gives an empty file. It happens with version 2.7.3 on Windows 10. It used to work.';
    const summary = await summaryOf(message);
    assert.ok(message.length < 300);
    assert.notEqual(words(summary), words(message));
    assert.match(summary, /empty file/);
    assert.match(summary, /2\.7\.3/);
  });

  it('give back only the point of a short message, without its courtesies', async () => {
    const message = 'Hello! Thank you so much for your help last time. Quick one: the CSV import rejects files bigger than 10 MB with "413 Payload Too Large". Thanks again!';
    assert.equal(await summaryOf(message), 'The CSV import rejects files bigger than 10 MB with "413 Payload Too Large".');
  });

  it('give back a one-sentence message with nothing to drop as it is (the app does not show it twice)', async () => {
    assert.equal(await summaryOf('Webhooks fail with 503 since 9:00.'), 'Webhooks fail with 503 since 9:00.');
  });
});

describe('draft titles', () => {
  const titleOf = (text: string, title = text.split('\n')[0]) => issueTitle({ title, text });

  it('are what is broken, without a greeting, not the message\'s first line', async () => {
    const message = "Hi, since this morning I can't log in with Google. I get a 403 error and the whole team is locked out. Thanks!";
    const title = (await titleOf(message))!;
    assert.doesNotMatch(title, GREETINGS);
    assert.notEqual(title, message.split('\n')[0]);
    assert.match(title, /403/);
    for (const text of ['Hola, buenos días.\nLa app se cierra al adjuntar una foto en el iPhone 12.', 'Hallo zusammen,\nseit 9 Uhr schlagen die Webhooks mit 503 fehl.']) {
      const other = (await titleOf(text))!;
      assert.doesNotMatch(other, GREETINGS, other);
      assert.match(other, /^\p{Lu}/u);
      assert.doesNotMatch(other, /\.$/);
    }
  });

  it('are at most 80 characters: a long sentence gives its most telling clause, else it is cut at a word', async () => {
    const clauses = await titleOf('After we rotated the certificate of our identity provider last Tuesday evening, SAML sign-in fails with "Invalid signature" for everyone.');
    assert.equal(clauses, 'SAML sign-in fails with "Invalid signature" for everyone');
    const conjunction = (await titleOf('The mobile app crashes every time I open the Reports tab and scroll down through the monthly figures on my iPhone.'))!;
    assert.equal(conjunction, 'The mobile app crashes every time I open the Reports tab');
    const long = (await titleOf(`The mobile app crashes every time I open the Reports tab ${'of the monthly figures '.repeat(4)}on my iPhone.`))!;
    assert.ok(long.length <= ISSUE_TITLE_MAX, long);
    assert.match(long, /^The mobile app crashes every time I open the Reports tab .*\p{L}…$/u);
  });

  it('drop an English first person before "can\'t", and add an error code given elsewhere when it fits', async () => {
    assert.equal(await titleOf("I can't log in with Google since this morning."), "Can't log in with Google since this morning");
    assert.equal(await titleOf('Exports to PDF crash the app on every device. Logs show ERR_PDF_RENDER.'), 'Exports to PDF crash the app on every device (ERR_PDF_RENDER)');
  });

  it('take an email\'s subject as a candidate without its "Re:", and are null for blank text', async () => {
    assert.equal(await issueTitle({ title: 'Re: AW: Export to PDF fails with error 500', text: 'See subject.' }), 'Export to PDF fails with error 500');
    assert.equal(await issueTitle({ title: '   ', text: '  ' }), null);
  });
});

describe('sentences', () => {
  it('are not split inside a URL', () => {
    assert.deepEqual(sentencesOf('We call GET /api/v1/conversations?limit=100 and get a 429. It fails.'), ['We call GET /api/v1/conversations?limit=100 and get a 429.', 'It fails.']);
  });
});
