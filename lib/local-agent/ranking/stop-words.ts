/**
 * English words that carry no hint of which tool is meant: function words and the polite
 * framing of a request ("could you please…"). Matched before stemming, in lower case.
 */
export const stopWords: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before
  being below between both but by can could did do does doing down during each either else etc
  few for from further had has have having he her here hers herself him himself his how i if in
  into is it its itself just let lets me might more most must my myself no nor not now of off on
  once only or other our ours ourselves out over own please same shall she should so some such
  than that the their theirs them themselves then there these they this those through to too
  under until up upon us very via was we were what when where which while who whom whose why
  will with within without would you your yours yourself yourselves e g eg ie i.e s t d ll m re
  ve`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
