/**
 * The function words the BM25 baseline ignores: Lucene's default English list plus pronouns,
 * wh-words, prepositions, quantifiers, a few conjunctions and adverbs, and the fragments that
 * splitting contractions leaves ("don't" → `don`, `t`). Auxiliary verbs beyond Lucene's are kept.
 * The composition was settled by comparing with the figures the eval README publishes for its
 * baseline (see bench/bm25.ts).
 */
export const bm25StopWords: ReadonlySet<string> = new Set(
  `a an and are as at be but by for if in into is it no not of on or such that the their then
  there these they this to was will with
  i me my myself we us our ours ourselves you your yours yourself yourselves he him his himself
  she her hers herself its itself them theirs themselves
  what which who whom whose when where why how
  about against between through during before after above below from up down out off over under
  onto upon within without
  all any both each few more most other some only own same so than too very
  because until while nor once here again further just now
  s t d ll m o re ve y don`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
