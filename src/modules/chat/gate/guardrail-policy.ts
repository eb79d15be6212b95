/**
 * The guardrail policy as data: categories, each with a client-facing reason
 * and rules over the normalised prompt (guardrail-normalize.ts: lowercase
 * [a-z0-9] words, single spaces, no apostrophes). docs/chat-guards.md states
 * the policy in prose and where each line is drawn; keep the two in step.
 *
 * A rule blocks when ALL its patterns match and NONE of its exceptions does.
 * Topic words alone never block: a rule pairs the topic with a request to
 * make, obtain, deploy or locate (the operational part), because questions
 * about how things work, history, defence and fiction are allowed.
 */

export type GuardrailCategory =
  | 'mass_casualty_weapons'
  | 'child_sexual_content'
  | 'self_harm'
  | 'malware'
  | 'doxxing_stalking'
  | 'prompt_injection';

export interface GuardRule {
  all: RegExp[];
  none?: RegExp[];
}

export interface GuardCategoryPolicy {
  category: GuardrailCategory;
  /** shown to the client; never contains the prompt */
  reason: string;
  rules: GuardRule[];
}

const alt = (...parts: string[]) => `(?:${parts.join('|')})`;
/** up to n words, none of them one of `banned` */
const gap = (n: number, banned?: string) => (banned ? `(?: (?!${banned}\\b)[a-z0-9]+){0,${n}}?` : `(?: [a-z0-9]+){0,${n}}?`);
const words = (source: string) => new RegExp(`\\b${source}\\b`);

// ---- shared vocabulary -----------------------------------------------------

/** asking for a how-to, in any person: "how do i", "steps to", "give me", "please" */
const FRAMING = alt(
  'how (?:to|do i|can i|could i|would i|should i|might i|do we|can we|could we|should we|would we|do you|can you|could you|would you|does one|can one|could one|would one|can someone|could someone|would someone)',
  'where (?:can|do|could|would|should) (?:i|we|one|someone)',
  // third-person framing is the usual disguise: "how would a terrorist make…"
  'how (?:would|could|might|do|does|can) (?:a |an |the )?(?:terrorists?|criminals?|someone|somebody|people|person|attackers?|one)',
  'steps? (?:to|for)', 'step by step', 'instructions?', 'directions', 'guide', 'tutorial', 'recipe', 'procedure',
  'protocol', 'methods?', 'process for', 'ways? to', '(?:best|easiest|cheapest|quickest|simplest) way',
  'help me', 'teach me', 'show me', 'tell me', 'explain', 'describe', 'detail', 'outline', 'give me', 'walk me through',
  'i (?:want|need|plan|intend|wanna|would like|d like|am going|m going|am trying|m trying) to', 'lets', 'let us',
  'can you', 'could you', 'would you', 'will you', 'please',
  'what (?:do|would|should) (?:i|we|you) need to',
  'what (?:materials|equipment|chemicals|ingredients|precursors|reagents|supplies|strains|tools) (?:do|would|are|should)',
);
/** first-person or imperative how-to only: "how do i", "help me" (not "how do criminals") */
const FIRST_PERSON = alt(
  'how (?:to|do i|can i|could i|should i|would i|might i|do you|can you|can someone)',
  'help me', 'teach me', 'show me how to', 'tell me how to', 'tips (?:for|on|to)', 'ways? to',
  '(?:best|easiest|quickest|simplest) way to',
  'i (?:want|need|plan|am going|m going|wanna|am trying|m trying) to', 'can you', 'could you', 'please',
);
/** a gap word that turns a request into fiction or history about the topic */
const STORYTELLING = alt(
  'scene', 'story', 'stories', 'novel', 'chapter', 'poem', 'screenplay', 'movie', 'film', 'show', 'episode', 'game',
  'character', 'characters', 'villain', 'villains', 'hero', 'protagonist', 'antagonist', 'plot', 'fiction', 'fictional',
  'where', 'in which', 'whose', 'history', 'historically',
);

// ---- mass-casualty weapons ---------------------------------------------------

const AGENT = words(
  alt(
    'nerve (?:agent|gas)s?', 'sarin', 'soman', 'tabun', 'cyclosarin', 'vx', 'novichoks?', '(?:sulfur |sulphur |nitrogen )?mustard gas',
    'sulfur mustard', 'lewisite', 'phosgene', 'chlorine gas', 'hydrogen cyanide', 'cyanogen chloride', 'ricin', 'abrin',
    'botulinum(?: toxin)?', 'botulism toxin', 'anthrax', 'bacillus anthracis', 'smallpox', 'variola', 'yersinia pestis',
    '(?:bubonic|pneumonic) plague', 'ebola', 'marburg', 'nipah',
    '(?:bio|chemical|biological|nuclear|radiological|atomic|thermonuclear) ?weapons?', 'bioweapons?',
    'weapons? of mass destruction', 'weaponi[sz]ed (?:virus|viruses|pathogens?|bacteria|disease|agents?|toxins?|spores)',
    '(?:nuclear|atomic|hydrogen|fission|fusion|neutron|thermonuclear) (?:bomb|warhead|device)s?', 'h bombs?', 'dirty bombs?',
    'radiological (?:dispersal|device|bomb)s?', 'weapons? grade (?:uranium|plutonium)', 'highly enriched uranium',
    '(?:uranium|plutonium) (?:to|for) (?:a |the )?(?:weapons? grade|bombs?|weapons?|warheads?)',
    '(?:pandemic|enhanced|engineered) pathogens?',
    'pipe bombs?', 'car bombs?', 'nail bombs?', 'pressure cooker bombs?', 'suicide (?:vest|belt)s?', 'ieds?',
    'improvised explosive(?: devices?)?', 'tatp', 'acetone peroxide', 'hmtd', 'petn', 'rdx', 'anfo', 'nitroglycerine?',
    'explosives', 'homemade explosives?', '(?:a|an) (?:homemade |home made |real |working |powerful |big )?(?:bomb|explosive device)',
  ),
);
/** an object of the verb that is protection, not the weapon: "make a vaccine", "antidote production" */
const PROTECTIVE = alt(
  'vaccines?', 'vaccinations?', 'antidotes?', 'antitoxins?', 'antibod(?:y|ies)', 'immunity', 'treatments?', 'cures?',
  'therap(?:y|ies)', 'medicines?', 'detectors?', 'detection', 'sensors?', 'tests?', 'test kits?', 'shelters?', 'masks?',
  'respirators?', 'filters?', 'protective', 'protection', 'defen[cs]es?', 'countermeasures?', 'decontamination', 'safety',
  'awareness', 'prevention',
);
const MAKE_VERB = alt(
  'make', 'makes', 'making', 'build', 'builds', 'building', 'synthesi[sz]e', 'synthesi[sz]es', 'synthesi[sz]ing', 'produce',
  'produces', 'producing', 'manufacture', 'manufactures', 'manufacturing', 'create', 'creates', 'creating', 'cook', 'cooking',
  'brew', 'brewing', 'culture', 'culturing', 'cultivate', 'cultivating', 'grow', 'growing', 'isolate', 'isolating', 'extract',
  'extracting', 'purify', 'purifying', 'refine', 'refining', 'weaponi[sz]e', 'weaponi[sz]ing', 'aerosoli[sz]e',
  'aerosoli[sz]ing', 'disperse', 'dispersing', 'deploy', 'deploying', 'release', 'releasing', 'spread', 'spreading', 'detonate',
  'detonating', 'assemble', 'assembling', 'enrich', 'enriching', 'acquire', 'acquiring', 'obtain', 'obtaining', 'buy', 'buying',
  'smuggle', 'smuggling', 'mix', 'mixing', 'prepare', 'preparing', 'stabili[sz]e', 'stabili[sz]ing', 'concentrate',
  'concentrating', 'set off', 'plant', 'planting',
);
const GUARDED_MAKE_VERB = `(?<!\\b${PROTECTIVE}(?: [a-z0-9]+){0,2} )${MAKE_VERB}(?!(?: [a-z0-9]+){0,2} ${PROTECTIVE}\\b)`;
const WEAPON_REQUEST = new RegExp(`\\b${FRAMING}${gap(6, STORYTELLING)} ${GUARDED_MAKE_VERB}\\b|^(?:please )?${GUARDED_MAKE_VERB}\\b`);
const HOW_IS_IT_MADE = words(
  `how (?:is|are)${gap(4, PROTECTIVE)} (?:made|produced|synthesi[sz]ed|manufactured|built|weaponi[sz]ed|cultured|grown|extracted|enriched|assembled)`,
);
const WEAPON_PROCESS = words(
  alt(
    'synthesis', 'synthesis route', 'precursors?', 'recipe', 'blueprints?', 'schematics?', 'weaponi[sz]ation',
    'aerosoli[sz]ation', 'dissemination', 'enrichment', 'production (?:method|process|steps|protocol)', 'detonators?',
    'shaped charge', 'implosion lens(?:es)?',
    '(?:increase|enhance|boost|improve) (?:its |the |their )?(?:lethality|transmissibility|virulence|contagiousness|potency)',
    'make (?:it|them|the [a-z]+) (?:more )?(?:lethal|transmissible|contagious|virulent|deadly|airborne)',
  ),
);
const MASS_HARM = words(
  `${FRAMING}${gap(4)} (?:kill|poison|infect|gas|murder|hurt|harm|injure) (?:as many (?:people )?as possible|as many people|lots of people|hundreds|thousands|many people|a (?:crowd|city|stadium|town|school|subway|concert)|everyone (?:in|at)|the (?:whole|entire) (?:city|town|building|school|office|crowd))`,
);
const POISON_WATER = words(
  `${FRAMING}${gap(3)} (?:poison|contaminate|infect)(?:ing)? (?:the |a |our |a citys |the citys )?(?:public |city |town )?(?:water supply|reservoir|water system|water treatment plant)`,
);

// ---- child sexual content ----------------------------------------------------

const AGES = alt('[1-9]', '1[0-7]', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen');
const AGE_PHRASE = `${AGES} ?(?:yo|y o|years? old|yr old|yrs old|year olds?)`;
/** "child" in code (child process, child element…) is not a child */
const CODE_CHILD = alt(
  'process', 'processes', 'node', 'nodes', 'element', 'elements', 'component', 'components', 'thread', 'threads', 'class',
  'classes', 'theme', 'themes', 'window', 'windows', 'table', 'tables', 'record', 'records', 'entity', 'entities', 'key', 'keys',
  'span', 'spans', 'object', 'objects', 'item', 'items', 'view', 'views', 'task', 'tasks', 'pid', 'directory', 'folder',
  'widget', 'widgets', 'route', 'routes', 'account', 'accounts', 'selector', 'selectors', 'care', 'support', 'benefit', 'tax',
);
const MINOR_NOUN = alt(
  `child(?! ${CODE_CHILD}\\b)`, `children(?! ${CODE_CHILD}\\b| prop| props| array)`, 'childs', 'kids?', 'kiddies', 'minors',
  '(?:a|the) minor(?= (?:and|or|in|who|that|is|was|being|under|with|girl|boy)\\b|$)', 'underage', 'under age', 'preteens?',
  'pre teens?', 'tweens?', 'teens?', 'teenage', 'teenagers?', 'toddlers?', 'infants?', 'newborns?', 'little (?:girl|boy)s?',
  'young (?:girl|boy)s?', 'schoolgirls?', 'schoolboys?', '(?:middle|elementary|primary|grade|junior high) school(?:er|ers)?',
  'lolis?', 'lolicon', 'shota', 'shotacon', 'prepubescent', 'pubescent', 'jailbait', AGE_PHRASE,
);
const MINOR = words(MINOR_NOUN);
const SEXUAL_EXPLICIT = words(
  alt(
    'porn', 'porno', 'pornography', 'pornographic', 'erotic', 'erotica', 'nsfw', 'lewd', 'hentai', 'smut', 'smutty', 'xxx',
    'sexually explicit', 'explicit (?:sex|sexual|content|images?|photos?|pics?|pictures?|videos?|story|stories|scenes?|fanfic|fan fiction)',
    'sex scenes?', 'sexual (?:roleplay|role play|rp|story|stories|fantasy|fantasies|acts?|content|images?|photos?|pics?|pictures?|videos?|intercourse|activity|encounter|scenes?|relationship|relations)',
    'sexting', 'sexts?', 'nudes', '(?:naked|nude) (?:photos?|pics?|pictures?|images?|videos?|selfies?|art|drawings?|modeling|shoot)',
    'have sex', 'having sex', 'had sex', 'intercourse', 'orgasms?', 'masturbat[a-z]*', 'blowjobs?', 'genitals?',
    'fondl(?:e|es|ed|ing)',
  ),
);
const SEXUAL = words(
  alt(
    'sex', 'sexual', 'sexually', 'sexy', 'sexier', 'naked', 'nude', 'undress(?:ed|es|ing)?', 'strip(?:s|ped|ping)? (?:naked|nude|down|off)',
    'aroused', 'arousal', 'arousing', 'fetish(?:es)?', 'kinky', 'horny', 'lingerie', 'seductive(?:ly)?', 'seduc(?:e|es|ed|ing|tion)',
    'molest(?:s|ed|ing|ation|er)?', 'rap(?:e|es|ed|ing)', 'intimate', 'intimacy',
  ),
);
/** asking for content to be produced or found, as opposed to a question about it */
const CONTENT_REQUEST = words(
  alt(
    'write', 'writing', 'story', 'stories', 'fanfic', 'fan fiction', 'roleplay', 'role play', 'rp', 'scene', 'describe',
    'description', 'narrate', 'poem', 'generate', 'create', 'draw', 'drawing', 'image', 'images', 'picture', 'pictures', 'photo',
    'photos', 'pic', 'pics', 'video', 'videos', 'render', 'illustrat[a-z]*', 'send me', 'show me', 'find me',
    'where (?:can|do|could) (?:i|we) (?:find|get|buy|download|watch|see)', 'link', 'links', 'download', 'fantasy', 'fantasize',
    'imagine', 'pretend', 'dialogue', 'chat as', 'act as', 'play (?:a|the)',
  ),
);
const CHILD_SAFETY_CONTEXT = words(
  alt(
    'protect[a-z]*', 'prevent[a-z]*', 'report[a-z]*', 'warning signs?', 'signs of', 'red flags?', 'recogni[sz][a-z]*', 'detect[a-z]*',
    'safeguard[a-z]*', 'safety', 'awareness', 'educat[a-z]*', 'sex ed', 'curriculum', 'talk to (?:my|our|a|the)',
    'talk with (?:my|our)', 'explain to (?:my|our|a)', 'teach (?:my|our)', 'therap[a-z]*', 'counsel[a-z]*', 'victims?',
    'survivors?', 'abused', 'abuse prevention', 'is (?:it|this|that) normal', 'normal for', 'talk to (?:them|him|her)',
    'what (?:do|should) (?:i|we) do', 'how (?:do|should) (?:i|we) (?:talk|respond|react|handle)',
    `my (?:son|daughter|kids?|child|children|teen|teenager|toddler|${AGE_PHRASE})`, 'puberty', 'pediatrician', 'doctor',
    'nurse', 'law', 'laws', 'legal', 'illegal', 'police', 'age of consent', 'moderat[a-z]*', 'trust and safety',
  ),
);
const CSAM_TERM = words(alt('child porn[a-z]*', 'kiddie porn', 'kiddy porn', 'csam', 'pedo (?:porn|videos?|pics?)', 'jailbait', 'lolicon', 'shotacon', 'pthc'));
const GROOMING = words(
  `${FIRST_PERSON}${gap(3)} (?:groom|seduce|lure|entice)(?:ing)?(?: a| an| the| this| that| young| little)* ${MINOR_NOUN}`,
);
const SEXTORTION = words(
  `(?:get|convince|persuade|trick|make|pressure)${gap(3)} (?:to|into) (?:send(?:ing)?|shar(?:e|ing)|tak(?:e|ing)) (?:me )?(?:nudes|naked|nude|sexy|explicit)`,
);

// ---- self-harm ---------------------------------------------------------------

const VIDEO_GAME = alt('minecraft', 'roblox', 'fortnite', 'dark souls', 'elden ring', 'skyrim', 'terraria', 'gta', 'the sims', '(?:the |a |this |my )?(?:video )?games?');
/** words that make "how to … overdose" a question about preventing or helping */
const NOT_SELF = alt(
  'not', 'never', 'avoid[a-z]*', 'stop[a-z]*', 'without', 'prevent[a-z]*', 'dont', 'treat[a-z]*', 'help[a-z]*', 'handle',
  'recogni[sz]e', 'reverse', 'deal', 'support', 'talk', 'friend', 'someone', 'respond', 'survive', 'recover[a-z]*',
);
const SELF_TARGET = alt(
  'kill myself', 'killing myself', `kill (?:yourself|oneself)(?! in ${VIDEO_GAME}\\b)`,
  'end my (?:own )?life', 'ending my (?:own )?life', 'take my (?:own )?life', 'taking my (?:own )?life', 'commit suicide',
  'committing suicide', 'hang myself', 'hanging myself', 'cut myself(?! (?:a|an|some|off|free|loose|short|out)\\b)',
  'cutting myself', 'hurt myself', 'hurting myself', 'harm myself', 'harming myself', 'self harm',
  'overdose(?! (?:on )?(?:victim|patient|symptoms|signs|treatment|kit)s?\\b)', 'od', 'poison myself', 'drown myself',
  'shoot myself', 'slit my (?:wrists?|throat)', 'cut my (?:wrists?|throat)', 'bleed (?:out|to death)', 'starve myself', 'suffocate myself', 'jump off (?:a|the) (?:bridge|building|roof)',
  'end it all',
);
const SELF_FRAMING = alt(
  'how (?:to|do i|can i|could i|should i|would i|might i|do you|can you|does one|can one|would one|do people)', 'best',
  'easiest', 'quickest', 'fastest', 'quickly', 'painless(?:ly)?', 'least painful', 'most effective', 'surest', 'quietest',
  'ways? to', 'methods? (?:to|of|for)', 'help me', 'teach me', 'show me how to', 'tell me how to', 'is it possible to',
  'where to',
  '(?:what|which) (?:pills|drugs|medications?|medicines?|chemicals?|household (?:items?|chemicals?|products?))', 'where (?:can|should|do) i',
);
const IDIOM_AFTER = `(?! (?:lol|lmao|haha|laughing|of (?:laughter|embarrassment|boredom|cringe|shame))\\b)`;
// "cut myself a slice", "hang myself a hammock"
const SELF_HARM_METHOD = words(`${SELF_FRAMING}${gap(4, NOT_SELF)} ${SELF_TARGET}(?! (?:a|an|some)\\b)${IDIOM_AFTER}`);
const DIE_METHOD = words(
  alt(
    '(?:painless|painlessly|quick|quickly|peaceful|peacefully|easiest|best|quickest|fastest|surest) (?:way|ways|method|methods) to die',
    'how (?:can|do|should|could) i die', 'ways to die (?:painlessly|quickly|peacefully|in my sleep)',
  ) + `(?! in ${VIDEO_GAME}\\b)`,
);
const LETHAL_DOSE = words(
  `(?:how (?:many|much)|what (?:dose|amount|number)|what is (?:a|the) (?:lethal|fatal|deadly) (?:dose|amount))${gap(8)} (?:to die|would kill me|will kill me|to kill me|kill me|for me to die|to overdose|to od|to end (?:it|my life)|to (?:not|never) wake up)`,
);
const SUICIDE_METHODS = words(alt('suicide methods?', 'methods? of suicide', 'painless suicide', 'suicide (?:guide|instructions|tutorial|kit)'));
const PREVENTION_CONTEXT = words(
  alt(
    'prevent[a-z]*', 'hotlines?', 'helplines?', 'awareness', 'warning signs', 'research', 'statistics', 'rates?', 'means restriction',
    'risk factors', 'support', 'help (?:a|my) (?:friend|partner|child|kid|son|daughter|student)',
    'help (?:someone|somebody|them|him|her)', 'therap[a-z]*', 'postvention', 'crisis',
  ),
);
const JOKING = words(alt('lol', 'lmao', 'haha', 'hahaha', 'jk', 'rofl', 'just kidding', 'kidding'));
const SUICIDE_MENTION = words(alt('suicide', 'kill myself', 'end my (?:own )?life', 'take my (?:own )?life', 'end it all'));
const ASK_HOW = words(alt('tell me how', 'show me how', 'how (?:do|can|should|would) i do (?:it|this|that)', 'how to do it', 'help me do it', 'what is the best way', 'whats the best way'));
const HIDE_SELF_HARM = words(
  `${FIRST_PERSON}${gap(3)} (?:hide|conceal|cover up|cover) (?:the |my )?` +
    alt(
      'self harm',
      `(?:cuts|scars|cutting|wounds|burns)${gap(3)} (?:from (?:my )?(?:parents|mom|mum|dad|family|teachers?|school|friends|therapist|doctor)|on my (?:wrists?|arms?|thighs?|legs?))`,
    ),
);
const SUICIDAL_INTENT = words(
  alt(
    'i (?:really |just |honestly )?(?:want|wanna|need|plan|intend|have decided|decided|am ready|m ready|am going|m going|am about|m about) to (?:kill myself|end my (?:own )?life|end it all(?! with| and)|take my (?:own )?life|commit suicide)',
    'i (?:will|ll|am gonna|m gonna|gonna) (?:kill myself|end my (?:own )?life|take my (?:own )?life|commit suicide)',
    'i (?:really |just )?(?:want|wanna|wish) (?:to die|i (?:was|were) dead)',
  ) + IDIOM_AFTER,
);

// ---- malware -----------------------------------------------------------------

const MALWARE = alt(
  'ransomware', 'keyloggers?', 'key loggers?', 'malware', 'rootkits?', 'bootkits?', 'trojans?(?! horse\\b)',
  'trojan horse (?:virus|malware|program)', 'remote access trojans?', 'botnets?', 'infostealers?', 'info stealers?',
  '(?:credential|password|cookie|token|discord token|wallet|crypto|browser) stealers?', 'spyware', 'stalkerware',
  'cryptojackers?', 'computer (?:virus|viruses|worms?)', 'self replicating (?:code|program|malware|virus|worm|script)',
  'polymorphic (?:code|virus|malware|engine|shellcode)', 'backdoors?(?! roth\\b)', 'wiper malware', 'exploit kits?', 'logic bombs?',
  `(?:virus|viruses|worms?|rats?|stealers?|droppers?)(?= (?:in|using|with|for) (?:python|c|cpp|c sharp|csharp|rust|go|golang|javascript|js|powershell|bash|batch|vbs|vba|java|windows|linux|android|macos)\\b)`,
);
/** "ransomware detector", "malware analysis": the thing named is the defence */
const DEFENSIVE_AFTER = `(?! (?:detector|detectors|detection|scanner|scanners|signatures?|rules?|analysis|analyzer|removal|remover|cleaner|protection|defen[cs]e|simulation|simulator|response|playbook|attacks?|incidents?|families|family|trends|statistics|awareness|training|classifier|classification|sandbox|honeypot|vaccine|research|policy|insurance|recovery|prevention|reports?|samples? for)\\b)`;
const CREATE = alt(
  'write', 'writing', 'code', 'coding', 'create', 'creating', 'build', 'building', 'develop', 'developing', 'generate', 'generating',
  'make', 'making', 'program', 'programming', 'craft', 'crafting', 'design', 'designing', 'implement', 'implementing', 'produce',
  'give me', 'send me', 'provide', 'show me',
);
const NOT_AN_ARTIFACT = alt(
  'about', 'on', 'of', 'for', 'against', 'from', 'to', 'that', 'which', 'detect[a-z]*', 'defen[a-z]*', 'protect[a-z]*',
  'prevent[a-z]*', 'remov[a-z]*', 'scan[a-z]*', 'block[a-z]*', 'stop[a-z]*', 'story', 'stories', 'scene', 'scenes', 'poem',
  'essay', 'article', 'report', 'blog', 'post', 'summary', 'explanation', 'presentation', 'slides?', 'policy', 'plan',
  'training', 'course', 'lesson', 'quiz', 'detector', 'signature', 'rules?', 'yara', 'sigma', 'analysis', 'history', 'overview',
  'simulation', 'tabletop', 'playbook', 'checklist', 'diagram', 'thriller', 'novel', 'movie', 'film', 'game', 'character',
  'where', 'when', 'how', 'why', 'what',
);
const BUILD_MALWARE = words(`${CREATE}${gap(4, NOT_AN_ARTIFACT)} ${MALWARE}${DEFENSIVE_AFTER}`);
const ASK = words(alt('write', 'give', 'provide', 'show', 'send', 'share', 'generate', 'create', 'can you', 'could you', 'please', 'help me', 'i need', 'i want'));
const MALWARE_CODE = words(
  `(?:code|script|program|source code|source|payload|implementation|poc|proof of concept|binary|exe|executable)${gap(2)} (?:for|of) (?:a |an |some |the )?(?:working |functional |simple |basic |new |custom |real )?${MALWARE}${DEFENSIVE_AFTER}`,
);
const MALWARE_THEN_CODE = words(`${MALWARE} (?:source )?(?:code|script|program|payload|builder|binary|executable)${DEFENSIVE_AFTER}`);
const MALICIOUS_BEHAVIOUR = words(
  `(?:script|program|code|tool|app|software|exe|payload|malware|virus|extension|macro|bot|page|site|website|form|kit)${gap(6)} (?:that|which|to|and) (?:silently |secretly |quietly |automatically |covertly )?` +
    alt(
      `encrypts? (?:(?:all|the|every|their|victims|users|a victims) )*(?:files|documents|drives?|data|hard drives?)${gap(6)} (?:ransom|bitcoin|payment|decryption key)`,
      '(?:logs?|records?|captures?|steals?|sends?|uploads?) (?:all |every |the |their |users )?(?:keystrokes|key strokes|keys pressed|key presses)',
      'steals? (?:the |all |their |saved |stored |browser |chrome |firefox |discord |users )*(?:passwords|credentials|cookies|tokens|session cookies|wallets?|credit cards?|logins)',
      'spreads? (?:itself )?(?:to|across|through|over) (?:other |all |every )?(?:computers|machines|hosts|devices|the network|the lan|contacts|usb drives)',
      '(?:disables?|kills?|bypass(?:es)?|evades?) (?:the )?(?:antivirus|anti virus|av|windows defender|defender|edr|amsi)',
      'hides? (?:itself )?from (?:the )?(?:antivirus|av|task manager|defender|user)',
      'replicates? itself',
    ),
);
const DEFENCE_CONTEXT = words(
  alt('defend', 'defen[cs]es?', 'protect[a-z]*', 'detect[a-z]*', 'prevent[a-z]*', 'mitigat[a-z]*', 'remov[a-z]*', 'block[a-z]*', 'stop', 'against', 'harden[a-z]*', 'incident response'),
);
/** a question about how something works, not a request for it */
const EXPLAINING = words(alt('explain', 'explains', 'how (?:does|do|did)(?! (?:i|we)\\b)', 'what (?:is|are|was|were)', 'why', 'history', 'analy[sz]e', 'analysis', 'describe how'));
const EVASION = words(
  alt(
    `(?:make|making|get|render|keep|obfuscate|obfuscating|pack|packing|crypt|encrypt)(?: [a-z0-9]+)? (?:my |the |this |our |a )?(?:payload|malware|virus|trojan|backdoor|shellcode|rat|exe|executable|binary|ransomware|keylogger|stealer|implant|beacon|dropper|loader)s?${gap(4)} (?:fully )?(?:undetectable|fud|bypass[a-z]*|evad[a-z]*|avoid[a-z]* detection|hidden from|invisible to|undetected)`,
    '(?:fud|fully undetectable) (?:crypter|payload|malware|rat|exe|backdoor|stealer|ransomware|keylogger)',
    `crypters?${gap(4)} (?:bypass|evade|undetect[a-z]*)`,
    `(?:bypass|evade|disable|kill|turn off) (?:windows defender|defender|antivirus|av|edr|amsi)${gap(6)} (?:payload|shellcode|malware|trojan|backdoor|rat|implant|beacon|ransomware|stealer)`,
  ),
);
const INFECT_OTHERS = words(
  `${FIRST_PERSON}${gap(3)} ` +
    alt(
      'infect (?:someones?|other peoples?|peoples|a victims?|victims|their|his|her|my (?:ex|boss|coworker|school|neighbors?)|the (?:targets?|victims?|school|company))',
      'deploy (?:ransomware|malware|a virus|a worm|a trojan|a keylogger)',
      'spread (?:ransomware|malware|a virus|my virus|a worm|my worm)',
    ),
);

// ---- doxxing and stalking ----------------------------------------------------

const DOX = words('dox(?:x)?(?:ing|ed|es)?');
const DOX_SELF_DEFENCE = words(
  alt('protect[a-z]*', 'prevent[a-z]*', 'avoid[a-z]*', 'what is', 'what does', 'whats', 'definition', 'from being', 'got', 'been', 'i was', 'i am being', 'im being', 'remove', 'report[a-z]*', 'legal', 'law', 'illegal', 'victims?'),
);
const LOOKUP = alt('find', 'get', 'look up', 'lookup', 'locate', 'track down', 'dig up', 'search for', 'figure out', 'tell me', 'give me', 'uncover', 'discover', 'reveal', 'expose', 'obtain', 'where is');
const WHEREABOUTS = alt('home address', 'house address', 'address', 'location', 'whereabouts', 'where (?:she|he|they) (?:lives?|works?|stays?|sleeps?)', 'daily routine', 'schedule', 'license plate', 'ip address');
const PERSONAL_DATA = alt(WHEREABOUTS, 'phone number', 'cell number', 'mobile number', 'number', 'workplace', 'real name', 'identity', 'social security number', 'ssn', 'family members', 'email address');
/** a private individual, by relation or by "this person" — not a business or a public place */
const PRIVATE_PERSON = alt(
  'my ex', 'ex (?:girlfriend|boyfriend|wife|husband|partner)', 'my (?:former|old) (?:girlfriend|boyfriend|wife|husband|partner)',
  '(?:this|that) (?:girl|guy|woman|man|person|user|streamer|account|redditor|twitter user|tiktoker|kid|lady|dude)',
  'someone', 'somebody', 'a (?:girl|guy|woman|man|person|stranger) (?:i|who|from)',
  'my (?:crush|coworker|co worker|colleague|neighbou?r|classmate|teacher|boss|landlord|tenant|therapist|date|roommate)',
  'a private (?:person|individual|citizen)', 'anonymous (?:user|account|poster|person|reviewer)', 'the person (?:behind|who|that)',
  '(?:the )?owner of (?:this|the|that) (?:username|account|handle|number|email|phone number|car|license plate)',
);
const LOCATE_PERSON = words(`${LOOKUP}${gap(3)} (?:the |their |his |her )?${PERSONAL_DATA}${gap(2)} (?:of |for |belonging to )?${PRIVATE_PERSON}`);
const LOCATE_BY_PRONOUN = words(`${LOOKUP}${gap(2)} (?:her|his|their) (?:${WHEREABOUTS})`);
const LOCATE_PERSON_BY_NAME = words(`${LOOKUP}${gap(3)} ${PRIVATE_PERSON}${gap(1)} s? (?:${PERSONAL_DATA})`);
const HOME_ADDRESS_OF = words(
  `${LOOKUP}${gap(3)} (?:the |their |his |her )?(?:home address|house address|home phone number|personal (?:phone|cell|mobile) number|personal address) (?:of|for)`,
);
const WHERE_DO_THEY_LIVE = words(
  alt(`where (?:does|do) ${PRIVATE_PERSON} (?:live|work|stay|sleep)`, `${LOOKUP}${gap(2)} where ${PRIVATE_PERSON} (?:lives|works|stays|sleeps)`),
);
const COVERT_MONITORING = words(
  `(?:track|trace|monitor|spy on|follow|watch|read|intercept|access|hack into|get into|log into|break into)${gap(4)} (?:location|phone|messages|texts|whatsapp|email|emails|instagram|snapchat|facebook|movements|calls|camera|icloud|account|car)`,
);
const WITHOUT_CONSENT = words(
  alt('without (?:her |him |them |their |my (?:wife|husband|girlfriend|boyfriend|partner) )?(?:knowing|knowledge|consent|permission|noticing|finding out)', 'secretly', 'covertly', 'discreetly', 'without being (?:detected|noticed|caught)'),
);
const PLANT_TRACKER = words(
  `(?:install|put|hide|plant|place|attach)${gap(3)} (?:spyware|stalkerware|keylogger|tracker|tracking app|gps tracker|airtag|tracking device|monitoring app|spy app)${gap(3)} (?:on|in|under|to) (?:my |her |his |their |a |the )?(?:ex|wife|husband|girlfriend|boyfriend|partner|spouse|coworker|neighbou?r|her|his|their|someone|somebody|victim)s?`,
);
const PERSON_OWNED = alt('my (?:ex|wife|husband|girlfriend|boyfriend|partner|spouse|crush|coworker|co worker|neighbou?r|friend|boss|classmate)s?', 'my ex (?:girlfriend|boyfriend|wife|husband|partner)s?', 'her', 'his', 'their', 'someones', 'somebodys', 'other peoples', '(?:this|that) (?:girls|guys|persons|womans|mans)');
const ACCOUNT = alt('instagram', 'snapchat', 'facebook', 'whatsapp', 'email', 'gmail', 'icloud', 'phone', 'account', 'accounts', 'messages', 'texts', 'tiktok', 'twitter', 'dms', 'camera', 'webcam');
const BREAK_INTO_ACCOUNT = words(`(?:hack|hack into|break into|get into|log into|crack)${gap(1)} ${PERSON_OWNED}${gap(1)} ${ACCOUNT}`);
const TRACK_AN_EX = words(`(?:track|trace|monitor|spy on|follow|locate)${gap(1)} (?:my ex|my ex (?:girlfriend|boyfriend|wife|husband|partner))s?\\b(?: ${ACCOUNT}| location| car| movements)?`);
const STALK = words(`${FIRST_PERSON}${gap(3, alt('stop', 'prevent', 'avoid', 'deal', 'report', 'protect', 'escape', 'handle', 'survive'))} stalk(?:ing)?(?! me\\b| us\\b)`);

// ---- prompt injection --------------------------------------------------------

const EXFIL_VERB = alt(
  'print', 'reveal', 'show', 'display', 'output', 'repeat', 'recite', 'echo', 'dump', 'leak', 'expose', 'tell me', 'give me',
  'send me', 'share', 'return', 'write out', 'spell out', 'paste', 'copy', 'what is', 'whats', 'what are', 'list', 'read back',
  'translate', 'summari[sz]e', 'encode', 'exfiltrate', 'read',
);
/** whose: the assistant's own, not "a system prompt for my bot" */
const ASSISTANTS = alt('your', 'its', '(?:the|this) (?:assistant|bot|model|ai|agent|chatbot|gpt|llm|system|server|service|backend|app|application|host|container)s?', 'all (?:of )?your');
const HIDDEN_PROMPT = alt(
  'system prompt', 'system message', 'system instructions', 'initial (?:prompt|instructions)', 'original (?:prompt|instructions)',
  'hidden (?:prompt|instructions|rules)', 'developer (?:prompt|message|instructions)', 'pre ?prompt',
  // generic words only at the end or with a tell: "print your instructions", not "your rules for formatting code"
  '(?:instructions|rules|guidelines|prompt|configuration|config)(?=$| (?:above|verbatim|word for word|exactly|in full|you were given|you have been given|from (?:the )?(?:developer|system|openai|anthropic))\\b)',
);
const SECRET_THINGS = alt(
  'api keys?', 'secret keys?', 'access tokens?', 'environment variables', 'env vars', 'dotenv', 'env file', 'config files?',
  'private keys?', 'ssh keys?', '(?:llm|openai|anthropic) (?:api )?key', 'database (?:password|credentials|url)',
  // generic words only at the end or next to another tell: "dump your credentials", not "your secrets for productivity"
  '(?:secrets|credentials|passwords?|tokens?|env)(?=$| (?:and|or|from|stored|in (?:the )?(?:env|environment|config))\\b)',
);
const ADJECTIVES = '(?:full |entire |complete |exact |original |initial |hidden |secret |internal |verbatim |real |underlying |own )*';
const EXFIL_PROMPT = words(`${EXFIL_VERB}${gap(5)} ${ASSISTANTS} ${ADJECTIVES}(?:${HIDDEN_PROMPT})`);
const EXFIL_SECRETS = words(`${EXFIL_VERB}${gap(4)} ${ASSISTANTS} ${ADJECTIVES}(?:${SECRET_THINGS})`);
const WHAT_WERE_YOU_TOLD = words(
  alt('what (?:were|have) you (?:been )?(?:told|instructed|given)(?: to do)? (?:before|prior to|at the start of) (?:this|our) (?:conversation|chat|message|session)', '(?:everything|all) you (?:were|have been) told'),
);
/** this service's own secret settings, by name */
const SERVICE_SECRETS = words(
  `(?:print|reveal|dump|leak|output|echo|show|tell me|give me|send me|read)(?: me)?(?: the)?(?: value of| values of| contents of)? (?:the )?(?:llm api key|openai api key|anthropic api key|jwt secret|env file|process env|os environ|proc self environ)`,
);
const REPEAT_ABOVE = words(
  `(?:repeat|print|output|reveal|dump|echo|recite|copy|write out)(?: back)?(?: all| everything| the)?(?: text| words| instructions| content| messages?)? (?:above|before this(?: message)?|preceding|prior to this)`,
);
const OVERRIDE = words(
  `(?:ignore|disregard|forget|override|bypass|skip|drop|abandon|do not follow|dont follow|stop following)${gap(3)}(?: all| any| the| your| my| of)* (?:previous|prior|above|earlier|preceding|original|initial|system|developer|existing|old|safety|default)? ?(?:instructions|instruction|prompts?|rules|directions|directives|guidelines|guardrails|constraints|restrictions|programming|policies|policy|filters?)`,
);
const HIJACK_OR_TARGET = words(
  alt(
    'system prompt', 'secrets?', 'api keys?', 'passwords?', 'credentials', 'environment variables', 'env vars', 'you are now',
    'act as', 'developer mode', 'dan', 'jailbreak', 'jailbroken', 'no restrictions', 'unrestricted', 'unfiltered',
    'without (?:any )?(?:restrictions|filters|rules|limits)', 'new instructions', 'from now on', 'pretend (?:you|to be)',
    '(?:confidential|hidden|secret|internal|original|initial) (?:configuration|config|instructions|prompt|settings|rules)',
  ),
);

// ---- the policy --------------------------------------------------------------

export const GUARDRAIL_POLICY: GuardCategoryPolicy[] = [
  {
    category: 'child_sexual_content',
    reason: 'This request was blocked because it involves sexual content with minors, which is never allowed.',
    rules: [
      { all: [CSAM_TERM], none: [CHILD_SAFETY_CONTEXT] },
      { all: [MINOR, SEXUAL_EXPLICIT, CONTENT_REQUEST] },
      { all: [MINOR, SEXUAL_EXPLICIT], none: [CHILD_SAFETY_CONTEXT] },
      { all: [MINOR, SEXUAL, CONTENT_REQUEST], none: [CHILD_SAFETY_CONTEXT] },
      { all: [GROOMING], none: [CHILD_SAFETY_CONTEXT] },
      { all: [MINOR, SEXTORTION] },
    ],
  },
  {
    category: 'mass_casualty_weapons',
    reason:
      'This request was blocked because it asks for help making, obtaining or using weapons capable of mass casualties.',
    rules: [
      { all: [AGENT, WEAPON_REQUEST] },
      { all: [AGENT, HOW_IS_IT_MADE] },
      { all: [AGENT, WEAPON_PROCESS] },
      { all: [MASS_HARM] },
      { all: [POISON_WATER] },
    ],
  },
  {
    category: 'self_harm',
    reason:
      'It sounds like you may be going through something really painful, and you deserve support. I can’t help with this ' +
      'request, but you don’t have to face it alone: please reach out to someone you trust or to a crisis line — in the US ' +
      'call or text 988, in the UK and Ireland call Samaritans on 116 123, or find a local helpline at findahelpline.com. ' +
      'If you are in immediate danger, please call your local emergency number.',
    rules: [
      { all: [SELF_HARM_METHOD] },
      { all: [DIE_METHOD] },
      { all: [LETHAL_DOSE] },
      { all: [SUICIDE_METHODS], none: [PREVENTION_CONTEXT] },
      { all: [HIDE_SELF_HARM] },
      { all: [SUICIDAL_INTENT], none: [JOKING] },
      { all: [SUICIDE_MENTION, ASK_HOW], none: [PREVENTION_CONTEXT] },
    ],
  },
  {
    category: 'malware',
    reason:
      'This request was blocked because it asks for help creating or deploying malicious software. Questions about how ' +
      'threats work and how to defend against them are welcome.',
    rules: [
      { all: [BUILD_MALWARE] },
      { all: [ASK, MALWARE_CODE] },
      { all: [ASK, MALWARE_THEN_CODE], none: [EXPLAINING, DEFENCE_CONTEXT] },
      { all: [words(CREATE), MALICIOUS_BEHAVIOUR], none: [DEFENCE_CONTEXT] },
      { all: [MALICIOUS_BEHAVIOUR], none: [DEFENCE_CONTEXT, EXPLAINING] },
      { all: [EVASION] },
      { all: [INFECT_OTHERS] },
    ],
  },
  {
    category: 'doxxing_stalking',
    reason: 'This request was blocked because it asks for help locating, tracking or exposing a private person.',
    rules: [
      { all: [DOX], none: [DOX_SELF_DEFENCE] },
      { all: [LOCATE_PERSON] },
      { all: [LOCATE_PERSON_BY_NAME] },
      { all: [LOCATE_BY_PRONOUN] },
      { all: [WHERE_DO_THEY_LIVE] },
      { all: [HOME_ADDRESS_OF] },
      { all: [COVERT_MONITORING, WITHOUT_CONSENT] },
      { all: [PLANT_TRACKER] },
      { all: [STALK] },
      { all: [BREAK_INTO_ACCOUNT] },
      { all: [TRACK_AN_EX] },
    ],
  },
  {
    category: 'prompt_injection',
    reason:
      'This request was blocked because it tries to override the assistant’s instructions or to reveal its system prompt or secrets.',
    rules: [
      { all: [EXFIL_PROMPT] },
      { all: [EXFIL_SECRETS] },
      { all: [REPEAT_ABOVE] },
      { all: [SERVICE_SECRETS] },
      { all: [WHAT_WERE_YOU_TOLD] },
      { all: [OVERRIDE, HIJACK_OR_TARGET] },
    ],
  },
];
