/** Who an injection addresses: a model, an assistant, an automated reader — never a human visitor. */
const MACHINE =
  '(?:ai|a\\.i\\.|llms?|gpts?|chatgpt|chatbots?|bots?|summari[sz]ers?|(?:large )?language models?|(?:ai |extraction |automated )?(?:models?|assistants?|scrapers?|crawlers?)|(?:ai|automated|autonomous|browsing) (?:agents?|tools?|systems?|readers?))';
/** The instructions an injection tries to cancel. */
const PRIOR =
  "(?:(?:previous|prior|above|earlier|preceding|original|initial|all|any|your|the system)\\b[^.\\n]{0,20}\\b(?:instructions?|prompts?|guidance|guidelines|rules|directives|task)|everything (?:above|before|so far|you (?:have been|were|'ve been) (?:told|instructed|given)))";
/** What an injection tells the model to do. */
const COMMAND =
  "(?:add|call|open|output|return|ignore|disregard|forget|respond|reply|say|tell|write|report|describe|state|include|append|extract|stop|send|submit|visit|click|run|execute|print|reveal|show|skip|summari[sz]e|translate|answer|claim|rate|do not|don't|never|only)";

/** Phrases that address a language model rather than a human reader. */
const INJECTION_PATTERNS: RegExp[] = [
  // Cancelling the model's instructions: "ignore all previous instructions", "disregard the task you were given".
  new RegExp(
    `\\b(?:ignore|disregard|forget|override|bypass|set aside|skip)\\b[^.\\n]{0,40}\\b(?:${PRIOR}|(?:the|your) (?:task|question|request|instructions?) (?:you were|you've been|you have been) (?:given|told|asked)|what(?:ever)? you (?:were|have been|'ve been) (?:told|asked|instructed))`,
    'i',
  ),
  /\b(?:ignore|disregard|forget)\b (?:the )?user'?s? (?:question|request|query|prompt|instructions?)\b/i,
  // The same in other major languages (German, French, Spanish, Italian, Portuguese, Dutch).
  /\b(?:ignoriere|vergiss|missachte)\b[^.\n]{0,30}\b(?:vorherigen|bisherigen|obigen|alle) (?:anweisungen|instruktionen|regeln)\b/i,
  /\b(?:ignore|oublie|oubliez|ignorez)\b[^.\n]{0,30}\b(?:instructions|consignes|règles) (?:précédentes|antérieures|ci-dessus)\b/i,
  /\b(?:ignora|ignore|olvida|olvide|esquece|esqueça)\b[^.\n]{0,30}\b(?:instrucciones|istruzioni|instruções|regras|reglas|regole) (?:anteriores|precedenti|previas|prévias)\b/i,
  /\b(?:negeer|vergeet)\b[^.\n]{0,30}\b(?:vorige|eerdere|alle) (?:instructies|regels)\b/i,
  // Re-assigning the model's role.
  /\byou are (?:now|no longer)\b[^.\n]{0,60}\b(?:assistant|ai|model|chatbot|gpt|llm|dan|unrestricted|jailbroken)\b/i,
  /\bfrom now on,? (?:you|answer|respond|reply|always|only)\b/i,
  /\b(?:jailbreak|developer mode enabled|DAN mode|do anything now)\b/i,
  // Asking for the model's hidden prompt.
  /\b(?:reveal|print|show|output|repeat|leak)\b[^.\n]{0,30}\b(?:your|the|my)\b[^.\n]{0,15}\b(?:system prompt|hidden prompt|initial prompt|instructions)\b/i,
  // New instructions announced as such.
  /\bnew (?:system )?(?:instructions?|rules|task)\s*:/i,
  /\b(?:begin|start) (?:a )?new task\b/i,
  // Chat-template tokens and role lines that carry an order.
  /<\s*\|?\s*(?:im_start|im_end|system|endoftext)\s*\|?\s*>|\[\/?INST\]|<<\/?SYS>>/i,
  /^\s*(?:system|assistant|developer)\s*:[^\n]*\b(?:ignore|disregard|forget|reveal|system prompt|new rules|from now on|you are now|maintenance mode)\b/im,
  // A message written to the model: "If you are an AI…", "Note to language models:", "Dear AI model,".
  new RegExp(`\\bif you(?: are|'re) an? ${MACHINE}\\b`, 'i'),
  new RegExp(
    `\\b(?:note|notes|message|instructions?|attention|notice|memo|reminder|command)\\b[^.\\n:]{0,30}\\b(?:to|for)\\b[^.\\n:]{0,12}\\b${MACHINE}\\b`,
    'i',
  ),
  new RegExp(`\\b(?:attention|dear|hi|hello|hey|psst|yo)(?: there)?,? ${MACHINE}\\b`, 'i'),
  new RegExp(`\\b${MACHINE} (?:instructions?|note|notes|message|directive)s?\\s*:`, 'i'),
  new RegExp(`(?:^|[.!?,]\\s+)${MACHINE}\\s*[,:—–-]\\s*(?:please )?${COMMAND}\\b`, 'im'),
  new RegExp(
    `\\b(?:any|every|all|the|an?|whichever)? ?${MACHINE} (?:(?:is|are) )?(?:reading|processing|summari[sz]ing|parsing|seeing|scraping|ingesting) (?:this|these)\\b`,
    'i',
  ),
  // "Any model that reads this must…", "Bots and summarizers must add…".
  new RegExp(
    `\\b(?:(?:any|every|all|each) ${MACHINE}|${MACHINE} and ${MACHINE})\\b[^.\\n]{0,50}\\b(?:must|should|shall|needs? to|are required to|is required to)\\s+(?:also |always |now |not |never )?${COMMAND}\\b`,
    'i',
  ),
  /\b(?:ai |autonomous |browsing )?agents? (?:browsing|acting|operating|shopping) (?:on behalf of|for) (?:a|the) user\b/i,
  new RegExp(
    `\\b(?:when|whenever|if|once) (?:an? |the )?${MACHINE} (?:reads?|process(?:es)?|summari[sz]es?|parses?|sees?|scrapes?)\\b`,
    'i',
  ),
  /\bwhen(?:ever)? you (?:summari[sz]e|extract|parse|process|index|scrape)\b[^.\n]{0,30}\b(?:this|these|the) (?:page|pages|text|document|reviews?|content|data|site|study|article)\b/i,
  // Steering the structured output or the model's memory.
  /\bwhen (?:returning|producing|generating|outputting|extracting) (?:the )?(?:json|data|output|answer|summary|result)\b/i,
  /\boverrides? the (?:actual|real|true|original) (?:values?|data|content|text|price)\b/i,
  /\bremember (?:this|that) (?:for|in) (?:all )?(?:future|later|subsequent) (?:conversations|chats|sessions|answers)\b/i,
  // Overriding what the page itself says, or hiding the instruction from the user.
  /\b(?:regardless of|whatever|no matter) (?:what )?(?:the (?:page|text|document|user|data|content) (?:says|said|asked|asks|shows)|you (?:were|are) (?:told|asked))\b/i,
  /\b(?:do not|don't|never) (?:tell|inform|alert|reveal to|mention to) the user (?:about |that )?(?:this|these|the) (?:instructions?|message|note|text|change)\b/i,
  /\b(?:respond|answer|reply|output) only with\b[^.\n]{0,60}\b(?:regardless|instead)\b/i,
  /\binstead,? (?:extract|return|output|respond with)\b[^.\n]{0,60}\b(?:following|this)\b/i,
];

export interface InjectionFinding {
  detected: boolean;
  evidence?: string;
}

/** Pattern check for prompt-injection attempts in page text (the deterministic half of checkPromptInjection). */
export function findPromptInjection(text: string): InjectionFinding {
  for (const pattern of INJECTION_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { detected: true, evidence: match[0].trim().slice(0, 200) };
  }
  return { detected: false };
}
