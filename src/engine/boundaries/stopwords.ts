/**
 * Built-in function words (stopwords) of English, Dutch, French, German and Spanish:
 * the most frequent articles, pronouns, prepositions, conjunctions and auxiliaries.
 * {@link HashingEmbedder} leaves them out by default: without corpus statistics (IDF)
 * they would otherwise dominate short queries. Listed in lowercase; diacritics are
 * normalised the same way as the text.
 * @module
 */
const LISTS = {
  en: 'a an the and or but if of to in on at by for with from as into about than then so is are was were be been being am do does did has have had having it its this that these those there here what which who whom whose when where why how i you he she we they me him her us them my your his our their not no can could will would shall should may might must also just very',
  nl: 'de het een en of maar als dan van in op aan bij voor met uit over naar tot om door is zijn was waren ben bent wordt worden werd werden heeft hebben had hadden kan kunnen zal zullen wil dat die dit deze er hier wat wie waar wanneer hoe ik jij je u hij zij ze wij we jullie mij me hem haar ons hun niet geen ook nog wel zo al te',
  fr: "le la les l un une des du de d et ou mais si que qu qui quoi dont ou a au aux en dans sur sous par pour avec sans chez est sont etait etaient etre ete a ont avait avaient avoir fait ce cet cette ces c il elle ils elles on je j tu nous vous me m te t se s lui leur leurs son sa ses mon ma mes ne n pas plus y quel quelle quels quelles comment",
  de: 'der die das den dem des ein eine einer eines einem einen und oder aber wenn als von zu in im an am auf bei fur mit aus uber nach um durch ist sind war waren bin bist wird werden wurde wurden hat haben hatte hatten kann konnen soll sollen will es er sie wir ihr ich du mich dich ihn uns nicht kein keine auch noch so was wer wo wie',
  es: 'el la los las un una unos unas y o pero si que de del a al en sobre por para con sin es son era eran ser sido estar esta estan ha han habia tener tiene lo le les se su sus mi mis tu tus yo nosotros ellos ellas no mas como cual cuales que quien donde cuando',
} as const;

/** The built-in stopwords per language (`en`, `nl`, `fr`, `de`, `es`; diacritics stripped, lowercase): also the function words sentence splitting and locale detection use. */
export const STOPWORDS_BY_LANGUAGE: Readonly<Record<keyof typeof LISTS, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries(LISTS).map(([language, words]) => [language, new Set(words.split(' '))]),
) as unknown as Record<keyof typeof LISTS, ReadonlySet<string>>;

/** The built-in stopwords, one Set for all five languages (diacritics stripped, lowercase). */
export const BUILTIN_STOPWORDS: ReadonlySet<string> = new Set(Object.values(LISTS).flatMap((l) => l.split(' ')));
