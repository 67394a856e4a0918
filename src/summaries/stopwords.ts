// Words that say nothing about a customer's problem: the function words of the languages the
// product is used in (English, Spanish, German, French, Portuguese, Italian) and the courtesies
// that open and close a message. Accent-free and lower case, as `normalize` leaves words. A
// language missing here still works (its function words then count as shared content, which
// only flattens the ranking a little); scripts without spaces need none.
const LISTS = [
  // English
  `a about after again all also am an and any are as at be been before being but by can could did do does doing
   for from had has have having he her here hers him his how i if in into is it its just me more my no not now of
   on once only or other our out over own same she should so some such than that the their them then there these
   they this those through to too under until up very was we were what when where which while who why will with
   would you your yours im ive dont cant didnt doesnt isnt wont its thats theres get got still even`,
  // Spanish
  `al algo algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos en entre
   era es esa ese eso esta estaba estamos estan estar este esto estos fue ha hay la las le les lo los mas me mi mis
   mucho muy nada ni no nos o os otra otro para pero poco por porque que quien se sea ser si sin sobre son su sus
   tambien tanto te tiene tengo ti todo tu tus un una uno unos y ya yo`,
  // German
  `aber alle als am an auch auf aus bei bin bis bitte da damit dann das dass dem den der des die dies diese dieser
   doch du durch ein eine einem einen einer es etwas fur hat hatte haben ich ihm ihn ihr ihre im in ist ja jetzt
   kann kein keine man mein meine mich mir mit muss nach nicht noch nun nur ob oder ohne schon sehr sein seit sich
   sie sind so um und uns unser unter vom von vor war waren was weil wenn wer wie wir wird wo zu zum zur`,
  // French
  `au aux avec ce ces cette dans de des du elle en est et etre il ils je la le les leur lui ma mais me mes moi mon
   ne nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vous`,
  // Portuguese
  `ao aos com da das do dos ela ele eles em essa esse esta este eu foi isso isto mas meu minha na nao nas no nos
   num numa os ou pela pelo por qual quando sao seu sua tem um uma voce`,
  // Italian
  `ai agli alla alle anche che chi ci coi col con da dal dalla degli dei del della dello di gli ha ho il io la le
   lo ma mi mio nel nella non per piu questo sono su sul sulla ti tra tu un una uno`,
  // Courtesies
  `hi hello hey dear team thanks thank please regards best cheers kind sincerely hola buenas buenos dias tardes
   gracias saludos favor estimado estimados atentamente hallo liebe lieber guten tag danke vielen dank gruss grusse
   freundlichen herren damen bonjour merci cordialement salut ola obrigado obrigada ciao grazie saluti`,
];

export const STOPWORDS: ReadonlySet<string> = new Set(LISTS.flatMap((list) => list.split(/\s+/)).filter(Boolean));
