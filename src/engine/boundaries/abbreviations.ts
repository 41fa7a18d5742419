/**
 * Abbreviation rules per language for {@link splitSentences}: after which words a period
 * followed by a capital (where ICU's UAX #29 rules break) does not end a sentence.
 *
 * One list for every language merged real sentences: "no", "fig", "art" and "Jan" are
 * ordinary words in one language and abbreviations in another ("The answer was no. We
 * left." · "Ik sprak met Jan. Hij …"). So each language has its own rules, and words that
 * are abbreviations only in context carry that context:
 * - `always`: the period never ends a sentence ("e.g.", "bijv.", "z.B.", "c.-à-d.");
 *   entries with a space are matched on the last two words ("et al.", "p. ex.").
 * - `beforeNumber`: only when a number follows ("No. 5", "Fig. 3", "1 jan. 2024",
 *   "blz. 12"); otherwise the word ends the sentence ("The answer was no. We left.").
 * - `beforeName`: only when a capitalised word follows that is not one of the language's
 *   function words ("Dr. Smith", "St. Louis", but "see the Dr. He said" breaks).
 * - `afterNumber`: only after a number ("5 Mio. Euro", "3 mln. Euro").
 * - `ordinalNouns` (German): a number with a period is an ordinal, not a sentence end,
 *   before a month or a noun ordinals go with ("am 3. Oktober", "im 19. Jahrhundert").
 *
 * Lists are lower case with their final period; the word is compared lower-cased, with
 * any opening bracket or quote stripped. Languages without a list (and malformed-free
 * tags with another language, e.g. `es`, `ja`) get {@link NEUTRAL_RULES}: Latin
 * abbreviations, international titles and the language-independent guards. Core module:
 * no Node built-in.
 * @module
 */
import { STOPWORDS_BY_LANGUAGE } from './stopwords.js';

/** The context rules of one language (see the module documentation). */
export interface AbbreviationRules {
  /** A period after these never ends a sentence. Two-word entries ("et al.") match the last two words. */
  readonly always: ReadonlySet<string>;
  /** Abbreviations only before a number: "No. 5", "Fig. 3", "1 jan. 2024". */
  readonly beforeNumber: ReadonlySet<string>;
  /** Abbreviations only before a capitalised word that is not a function word: "Dr. Smith", "St. Louis". */
  readonly beforeName: ReadonlySet<string>;
  /** Abbreviations only after a number: "5 Mio. Euro". */
  readonly afterNumber?: ReadonlySet<string>;
  /** German ordinals: "3." before a word matching this (lower case) is not a sentence end. */
  readonly ordinalNouns?: RegExp;
  /** The language's function words (lower case, diacritics stripped): a capitalised one is no name ("Dr. He said"). */
  readonly functionWords: ReadonlySet<string>;
}

/** A set from a space-separated list; `_` stands for the space inside a two-word entry (`et_al.`). */
const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/).filter(Boolean).map((w) => w.replace('_', ' ')));

/** Latin abbreviations shared by every language's rules. */
const LATIN = 'e.g. i.e. cf. vs. viz. et_al. ibid. op._cit.';

/** Rules for languages without their own list: Latin abbreviations, international titles, "No. 5"-style numbers. */
export const NEUTRAL_RULES: AbbreviationRules = {
  always: set(`${LATIN} dr. prof.`),
  beforeNumber: set('no. nr. fig. p. pp. vol. art. ca.'),
  beforeName: set(''),
  functionWords: set(''),
};

/**
 * The rules per language (base language subtag of the locale: `en-GB` → `en`).
 * `ABBREVIATIONS.nl.always.has('bijv.')`; {@link rulesFor} picks one for a locale.
 */
export const ABBREVIATIONS: Readonly<Record<'en' | 'nl' | 'fr' | 'de', AbbreviationRules>> = {
  en: {
    always: set(`${LATIN} mr. mrs. ms. messrs. prof. approx. dept. univ. assn. esp. incl. excl. resp.`),
    beforeNumber: set('no. nos. fig. figs. vol. vols. p. pp. sec. secs. ch. chap. eq. eqs. art. ref. refs. tab. ca. est. jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec.'),
    beforeName: set('dr. st. mt. ft. gen. gov. sen. rep. col. lt. maj. brig. capt. sgt. cpl. pvt. lieut. rev. hon. pres. supt. adm. cmdr.'),
    functionWords: STOPWORDS_BY_LANGUAGE.en,
  },
  nl: {
    always: set(
      `${LATIN} bv. bijv. b.v. o.a. d.w.z. m.a.w. i.p.v. t.o.v. m.b.t. i.v.m. a.d.h.v. o.b.v. z.g.a.n. e.a. e.d. o.i.d. ` +
        'nl. dhr. mevr. mw. mr. dr. prof. ir. ing. drs. evt. incl. excl. vgl. zgn. resp. mbt. ivm. ipv. tov.',
    ),
    beforeNumber: set('nr. no. blz. p. pag. pp. fig. afb. tab. hfst. art. par. vol. ca. jan. feb. mrt. apr. jun. jul. aug. sep. sept. okt. nov. dec.'),
    beforeName: set('st.'),
    afterNumber: set('mln. mld. mrd.'),
    functionWords: STOPWORDS_BY_LANGUAGE.nl,
  },
  fr: {
    always: set(`${LATIN} p._ex. c.-à-d. c-à-d. mme. mlle. mm. dr. pr. env. av. apr. éd. coll. trad. resp.`),
    beforeNumber: set('p. pp. no. vol. chap. art. fig. sec. tab. t. ex. ca. janv. févr. fév. avr. juil. sept. oct. nov. déc.'),
    beforeName: set('st. ste.'),
    functionWords: STOPWORDS_BY_LANGUAGE.fr,
  },
  de: {
    always: set(
      `${LATIN} s. z. d. u. z.b. d.h. u.a. bzw. ggf. evtl. inkl. vgl. bspw. sog. z.t. u.u. o.ä. u.ä. s.o. s.u. ` +
        'dr. prof. hr. fr. dipl.-ing. allg. bes. einschl. zzgl. zit. hrsg. geb. gest.',
    ),
    beforeNumber: set('nr. abb. tab. kap. abs. art. bd. str. ca. jan. feb. febr. mär. apr. jun. jul. aug. sep. sept. okt. nov. dez.'),
    beforeName: set('st.'),
    afterNumber: set('mio. mrd. tsd.'),
    functionWords: STOPWORDS_BY_LANGUAGE.de,
    ordinalNouns:
      /^(?:januar|jänner|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember|jan|feb|febr|mär|apr|jun|jul|aug|sep|sept|okt|nov|dez|jh|jahrhunderts?|jahrtausends?|jahrestag(?:es)?|geburtstag(?:es)?|platz(?:es)?|auflage|mal|kapitel|klasse|liga|runde|stock|etage|woche|tag(?:es)?|lebensjahr(?:es)?|weltkrieg(?:es|s)?|bundesliga|semester|quartal(?:s)?|spieltag(?:es)?)\.?$/,
  },
};

/**
 * The rules for a BCP 47 locale: its base language's (`de-CH` → `de`), or
 * {@link NEUTRAL_RULES} for a language without a list.
 * @throws {RangeError} from `Intl.Locale` for a malformed tag.
 */
export function rulesFor(locale: string): AbbreviationRules {
  const language = (new Intl.Locale(locale).language ?? 'und') as keyof typeof ABBREVIATIONS;
  return Object.hasOwn(ABBREVIATIONS, language) ? ABBREVIATIONS[language] : NEUTRAL_RULES;
}
