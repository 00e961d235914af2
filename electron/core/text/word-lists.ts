/** Word lists for the citation checker and content stems, kept apart so the rules in answer/text-features.ts and stems.ts stay readable. */

// Function words: they carry no evidence that a sentence and a chunk say the same thing.
const STOPWORDS = `
a about above after again against all also am an and any are as at be because been before being
below between both but by can cannot could did do does doing down during each either else ever
every few for from further had has have having he her here hers herself him himself his how however
i if in into is it its itself just least less let like many may me might more most much must my
myself neither no nor not now of off often on once one only or other others otherwise our ours
ourselves out over own per rather same shall she should since so some such than that the their
theirs them themselves then there therefore these they this those though through thus to too under
until up upon us usually very via was we well were what whatever when whenever where whether which
while who whom whose why will with within without would yes yet you your yours yourself yourselves
don doesn didn isn aren wasn weren won wouldn shouldn couldn hasn haven hadn ll re ve
`;

// Words a model adds around a claim ("According to your notes, ...") that the chunk never contains.
const ANSWER_FILLER = `
according answer based chunk chunks context document documents mention mentioned mentions note
noted notes provided say said says source sources state stated states described describes
`;

export const CONTENT_STOPWORDS: ReadonlySet<string> = new Set(`${STOPWORDS} ${ANSWER_FILLER}`.split(/\s+/).filter(Boolean));

// Spelled-out numbers a chunk may use where the answer writes digits ("ninety days" vs "90 days").
const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const TENS = ['thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map([
  ...SMALL.map((w, i): [string, string] => [w, String(i)]),
  ...TENS.map((w, i): [string, string] => [w, String((i + 3) * 10)]),
  ['dozen', '12'],
  ['hundred', '100'],
  ['thousand', '1000'],
  ['million', '1000000'],
]);
