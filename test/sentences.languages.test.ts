/**
 * splitSentences per language (issue 15): each language has its own abbreviation rules
 * (src/engine/boundaries/abbreviations.ts). For en, nl, fr and de, real sentences in two sets:
 * - false splits: ICU breaks after an abbreviation, an ordinal or a title (a period, a
 *   space, a capital or a number), and the rules must join the pieces back;
 * - false merges: a word that is an abbreviation elsewhere (or only before a number)
 *   ends a real sentence, and the rules must keep the break.
 * Every case is checked against ICU alone first: a case ICU already gets right tests
 * nothing, so it is not in the lists.
 * Also: the context rules in isolation, locale resolution, and locale detection.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ABBREVIATIONS, NEUTRAL_RULES, isCaseless, rulesFor, splitSentences } from '../src/engine/boundaries/sentences.js';
import { detectLocale } from '../src/engine/boundaries/locale.js';
import { corporaDir, textsDir } from './helpers/paths.js';

const sentences = (text: string, locale: string): string[] => {
  const s = splitSentences(text, { locale });
  return Array.from(s.starts, (a, i) => text.slice(a, s.ends[i]).trimEnd());
};
/** The sentences of ICU alone. */
const icu = (text: string, locale: string): string[] =>
  Array.from(new Intl.Segmenter(locale, { granularity: 'sentence' }).segment(text), (s) => s.segment.trimEnd());

type Case = [text: string, expected: string[]];

const FALSE_SPLITS: Record<string, Case[]> = {
  en: [
    ['We stayed at No. 5 Park Lane for a week.', ['We stayed at No. 5 Park Lane for a week.']],
    ['The Jan. 6 Committee met again on Monday.', ['The Jan. 6 Committee met again on Monday.']],
    ['We asked Dr. Brown and Mrs. Green for advice. Both agreed.', ['We asked Dr. Brown and Mrs. Green for advice.', 'Both agreed.']],
    ['St. Paul’s Cathedral stands in London. It is old.', ['St. Paul’s Cathedral stands in London.', 'It is old.']],
    ['Some fruits, e.g. Apples and pears, keep well. Others do not.', ['Some fruits, e.g. Apples and pears, keep well.', 'Others do not.']],
    ['J. R. R. Tolkien wrote the book. It sold well.', ['J. R. R. Tolkien wrote the book.', 'It sold well.']],
    ['The result (see Fig. 2 Above) was clear. Good.', ['The result (see Fig. 2 Above) was clear.', 'Good.']],
    // "P." is "page" before a number, and an initial otherwise
    ['The owner John P. McConnell sent a letter. It arrived.', ['The owner John P. McConnell sent a letter.', 'It arrived.']],
    ['He served under Maj. Gen. Earl Van Dorn that year. Then he left.', ['He served under Maj. Gen. Earl Van Dorn that year.', 'Then he left.']],
  ],
  nl: [
    ['Gebruik bijv. Markdown-koppen voor de structuur. Dat helpt.', ['Gebruik bijv. Markdown-koppen voor de structuur.', 'Dat helpt.']],
    ['Volgens art. 3 Grondwet is iedereen gelijk. Dat geldt overal.', ['Volgens art. 3 Grondwet is iedereen gelijk.', 'Dat geldt overal.']],
    ['Het rapport van 1 jan. 2024 (Deel 2) was kort. Niemand las het.', ['Het rapport van 1 jan. 2024 (Deel 2) was kort.', 'Niemand las het.']],
    ['Gisteren sprak dhr. Jansen met mevr. De Vries. Ze waren het eens.', ['Gisteren sprak dhr. Jansen met mevr. De Vries.', 'Ze waren het eens.']],
    ['De tekst is o.a. Nederlands en Frans. Klaar.', ['De tekst is o.a. Nederlands en Frans.', 'Klaar.']],
    ['Het bedrijf verdiende 5 mln. Euro dat jaar. Een record.', ['Het bedrijf verdiende 5 mln. Euro dat jaar.', 'Een record.']],
    ['Zie blz. 12 Onderaan voor de tabel. Daar staat het.', ['Zie blz. 12 Onderaan voor de tabel.', 'Daar staat het.']],
  ],
  fr: [
    ['Les grandes villes, c.-à-d. Paris et Lyon, sont chères. Les autres moins.', ['Les grandes villes, c.-à-d. Paris et Lyon, sont chères.', 'Les autres moins.']],
    ['Des journaux, p. ex. Le Monde, en ont parlé. Puis plus rien.', ['Des journaux, p. ex. Le Monde, en ont parlé.', 'Puis plus rien.']],
    ['M. Dupont est arrivé en retard. Il pleuvait.', ['M. Dupont est arrivé en retard.', 'Il pleuvait.']],
    ['Voir chap. 4 Pour les détails du calcul. Fin.', ['Voir chap. 4 Pour les détails du calcul.', 'Fin.']],
    ['Il est né en 63 av. J.-C. Son fils lui a succédé.', ['Il est né en 63 av. J.-C.', 'Son fils lui a succédé.']],
  ],
  de: [
    ['Am 3. Oktober feiern wir den Tag der Einheit. Alle haben frei.', ['Am 3. Oktober feiern wir den Tag der Einheit.', 'Alle haben frei.']],
    ['Im 19. Jahrhundert wuchs die Stadt schnell. Heute ist sie groß.', ['Im 19. Jahrhundert wuchs die Stadt schnell.', 'Heute ist sie groß.']],
    ['Das gilt z. B. Für alle Mitglieder. Ausnahmen gibt es nicht.', ['Das gilt z. B. Für alle Mitglieder.', 'Ausnahmen gibt es nicht.']],
    ['Die Firma hat 5 Mio. Euro verdient. Das ist viel.', ['Die Firma hat 5 Mio. Euro verdient.', 'Das ist viel.']],
    ['Gestern kam Dr. Müller mit Prof. Schmidt. Sie blieben lange.', ['Gestern kam Dr. Müller mit Prof. Schmidt.', 'Sie blieben lange.']],
    ['Er wohnt in St. Gallen bei seiner Tante. Es gefällt ihm.', ['Er wohnt in St. Gallen bei seiner Tante.', 'Es gefällt ihm.']],
  ],
};

const FALSE_MERGES: Record<string, Case[]> = {
  en: [
    ['The answer was no. We left early.', ['The answer was no.', 'We left early.']],
    ['He ate a fig. It was sweet.', ['He ate a fig.', 'It was sweet.']],
    ['She studies art. Her brother prefers music.', ['She studies art.', 'Her brother prefers music.']],
    ['I talked to Al. He agreed at once.', ['I talked to Al.', 'He agreed at once.']],
    ['The shop is on Main St. The house next to it is red.', ['The shop is on Main St.', 'The house next to it is red.']],
    ['We waited for the Dr. He never came.', ['We waited for the Dr.', 'He never came.']],
    ['It took 30 sec. Then the screen went dark.', ['It took 30 sec.', 'Then the screen went dark.']],
  ],
  nl: [
    ['Ik sprak gisteren met Jan. Hij was het eens.', ['Ik sprak gisteren met Jan.', 'Hij was het eens.']],
    ['De vergadering was op 1 jan. Daarna ging iedereen naar huis.', ['De vergadering was op 1 jan.', 'Daarna ging iedereen naar huis.']],
    ['Hij zei nee. Wij gingen vroeg weg.', ['Hij zei nee.', 'Wij gingen vroeg weg.']],
    ['Dat gebeurde op 5 mei jl. Niemand had het verwacht.', ['Dat gebeurde op 5 mei jl.', 'Niemand had het verwacht.']],
    ['Ze noemde het een soort art. Niemand begreep het.', ['Ze noemde het een soort art.', 'Niemand begreep het.']],
  ],
  fr: [
    ['Le vin est sec. Il accompagne bien le poisson.', ['Le vin est sec.', 'Il accompagne bien le poisson.']],
    ['Il attendit 30 sec. Puis il partit.', ['Il attendit 30 sec.', 'Puis il partit.']],
    ['C’est un bel art. Il demande de la patience.', ['C’est un bel art.', 'Il demande de la patience.']],
    ['Ils ont mangé des pommes, des poires, etc. Ensuite ils sont partis.', ['Ils ont mangé des pommes, des poires, etc.', 'Ensuite ils sont partis.']],
  ],
  de: [
    ['Das Ergebnis war 3. Das hat alle überrascht.', ['Das Ergebnis war 3.', 'Das hat alle überrascht.']],
    ['Wir trafen Jan. Er war müde.', ['Wir trafen Jan.', 'Er war müde.']],
    ['Wir kauften Äpfel, Birnen usw. Danach gingen wir heim.', ['Wir kauften Äpfel, Birnen usw.', 'Danach gingen wir heim.']],
    ['Er wurde im Jahr 2020. Geboren ist er in Wien.', ['Er wurde im Jahr 2020.', 'Geboren ist er in Wien.']],
  ],
};

describe.each(['en', 'nl', 'fr', 'de'])('%s', (locale) => {
  it.each(FALSE_SPLITS[locale])('false split joined: %j', (text, expected) => {
    expect(icu(text, locale)).not.toEqual(expected); // ICU alone splits it
    expect(sentences(text, locale)).toEqual(expected);
  });
  it.each(FALSE_MERGES[locale])('real break kept: %j', (text, expected) => {
    expect(sentences(text, locale)).toEqual(expected);
    // ICU alone breaks there (so the case tests the rules: a rule that joined the break would fail it)
    expect(icu(text, locale)).toEqual(expected);
  });
});

describe('the context rules, one at a time', () => {
  it('beforeNumber: "No." is an abbreviation before a number only', () => {
    expect(sentences('Room No. 5 Is upstairs.', 'en')).toEqual(['Room No. 5 Is upstairs.']);
    expect(sentences('The answer was No. Then we left.', 'en')).toEqual(['The answer was No.', 'Then we left.']);
  });
  it('beforeName: "Dr." before a capitalised word that is not a function word', () => {
    expect(sentences('See Dr. Watson. Then leave.', 'en')).toEqual(['See Dr. Watson.', 'Then leave.']);
    expect(sentences('See the Dr. They wait.', 'en')).toEqual(['See the Dr.', 'They wait.']);
    // Dutch titles come before surnames such as "De Vries": always abbreviations there
    expect(sentences('Ik zag dr. De Vries. Hij lachte.', 'nl')).toEqual(['Ik zag dr. De Vries.', 'Hij lachte.']);
  });
  it('afterNumber: "Mio." after a number only', () => {
    expect(sentences('Es waren 3 Mio. Menschen da. Viele.', 'de')).toEqual(['Es waren 3 Mio. Menschen da.', 'Viele.']);
    expect(sentences('Er sagte Mio. Dann ging er.', 'de')).toEqual(['Er sagte Mio.', 'Dann ging er.']);
  });
  it('German ordinals only before months and ordinal nouns', () => {
    expect(sentences('Am 1. Mai war es warm. Gut.', 'de')).toEqual(['Am 1. Mai war es warm.', 'Gut.']);
    expect(sentences('Er wurde 2. Dann kam der Regen.', 'de')).toEqual(['Er wurde 2.', 'Dann kam der Regen.']);
    // the ordinal rule is German: in English "3. October" stays two pieces
    expect(sentences('It was 3. October came.', 'en')).toEqual(['It was 3.', 'October came.']);
  });
  it('a line break after an abbreviation is always a break', () => {
    expect(sentences('Gebruik bijv.\nMarkdown.', 'nl')).toEqual(['Gebruik bijv.', 'Markdown.']);
  });
});

describe('caseless (lower-cased) text', () => {
  it('a period before a lower-case word ends a sentence when the text has no capitals; the guards still hold', () => {
    const text = 'the company paid $20 million in 2020. a deferred tax asset, e.g. the credit, of approx. 5 million was booked at no. 5 main st. it expired. see p. 12 for u.s. details.';
    expect(isCaseless(text)).toBe(true);
    expect(sentences(text, 'en')).toHaveLength(1); // ICU alone: no break before a lower-case letter
    const s = splitSentences(text, { caseless: true });
    expect(Array.from(s.starts, (a, i) => text.slice(a, s.ends[i]).trimEnd())).toEqual([
      'the company paid $20 million in 2020.',
      'a deferred tax asset, e.g. the credit, of approx. 5 million was booked at no. 5 main st. it expired.',
      'see p. 12 for u.s. details.',
    ]);
  });
  it('the finance corpus (no capital at all) splits into sentences instead of paragraphs', () => {
    const text = readFileSync(join(corporaDir, 'finance.md'), 'utf8');
    expect(isCaseless(text)).toBe(true);
    const longest = (o: { caseless?: boolean }) => {
      const s = splitSentences(text, o);
      return Math.max(...Array.from(s.starts, (a, i) => s.ends[i] - a));
    };
    expect(longest({})).toBeGreaterThan(5000);
    expect(longest({ caseless: true })).toBeLessThan(1100);
  });
  it('texts with capitals, and caseless scripts, are not caseless', () => {
    expect(isCaseless('The cat. the dog.')).toBe(false);
    expect(isCaseless('你好。我很好')).toBe(false);
  });
});

describe('rules per locale', () => {
  it('the base language of the tag picks the list; other languages get the neutral rules', () => {
    expect(rulesFor('nl-BE')).toBe(ABBREVIATIONS.nl);
    expect(rulesFor('de-CH')).toBe(ABBREVIATIONS.de);
    expect(rulesFor('en')).toBe(ABBREVIATIONS.en);
    expect(rulesFor('es')).toBe(NEUTRAL_RULES);
    expect(rulesFor('und')).toBe(NEUTRAL_RULES);
    expect(() => rulesFor('not a tag')).toThrow(RangeError);
    expect(ABBREVIATIONS.nl.always.has('bijv.')).toBe(true);
    expect(ABBREVIATIONS.fr.always.has('c.-à-d.')).toBe(true);
    expect(ABBREVIATIONS.en.always.has('no.')).toBe(false);
    expect(ABBREVIATIONS.en.beforeNumber.has('no.')).toBe(true);
  });
  it('Latin abbreviations work in every language, including the neutral rules', () => {
    for (const locale of ['en', 'nl', 'fr', 'de', 'es']) {
      expect(sentences('Zhang et al. Found it. Yes.', locale)).toEqual(['Zhang et al. Found it.', 'Yes.']);
    }
  });
  it('locale auto detects the language from the text', () => {
    const text = 'Ik sprak gisteren met Jan over de tekst. Gebruik bijv. Markdown-koppen voor de structuur van het document.';
    expect(sentences(text, 'auto')).toEqual(sentences(text, 'nl'));
    expect(sentences(text, 'auto')).toHaveLength(2);
  });
});

describe('detectLocale (stopword vote, scripts)', () => {
  it.each([
    ['nl-sliding-window.txt', 'nl'],
    ['nl-chunking-strategieen.txt', 'nl'],
    ['nl-qasc.txt', 'nl'],
    ['fr-fenetre-glissante.txt', 'fr'],
    ['en-sliding-window.txt', 'en'],
    ['de-streaming.txt', 'de'],
    ['ja-chunking.txt', 'ja'],
  ])('texts/%s → %s', (name, locale) => {
    expect(detectLocale(readFileSync(join(textsDir, name), 'utf8'))).toBe(locale);
  });
  it('the evaluation corpora are English', () => {
    for (const c of ['state_of_the_union', 'wikitexts', 'pubmed', 'finance']) {
      expect(detectLocale(readFileSync(join(corporaDir, `${c}.md`), 'utf8'))).toBe('en');
    }
  });
  it('German and Spanish sentences, CJK scripts, and no evidence', () => {
    expect(detectLocale('Der Hund läuft über die Straße, und die Katze schläft im Haus. Es ist ein schöner Tag.')).toBe('de');
    expect(detectLocale('El perro corre por la calle y el gato duerme en la casa.')).toBe('es');
    expect(detectLocale('你好。我很好！真的？是的')).toBe('zh');
    expect(detectLocale('こんにちは。元気です。')).toBe('ja');
    expect(detectLocale('안녕하세요. 반갑습니다.')).toBe('ko');
    expect(detectLocale('The cat sleeps.')).toBe('und'); // one function word: too little evidence
    expect(detectLocale('12345 !!!')).toBe('und');
    expect(detectLocale('')).toBe('und');
  });
});
