/** Phrases that address a language model rather than a human reader. */
const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|the system)\b[^.\n]{0,20}\b(instructions?|prompts?|directions|rules|guidelines|context)\b/i,
  /\byou are (now|no longer)\b[^.\n]{0,60}\b(assistant|ai|model|chatbot|gpt|llm|dan|unrestricted|jailbroken)\b/i,
  /\b(reveal|print|show|output|repeat|leak)\b[^.\n]{0,30}\b(your|the)\b[^.\n]{0,15}\b(system prompt|instructions|hidden prompt|initial prompt)\b/i,
  /\bnew (system )?instructions?\s*:/i,
  /\b(as an? (ai|language model|llm)|dear (ai|assistant|llm|language model))\b[^.\n]{0,80}\b(must|should|will|ignore|output|respond|return)\b/i,
  /<\|?(im_start|im_end|system|endoftext)\|?>|\[\/?INST\]|<<\/?SYS>>|^\s*(system|assistant)\s*:\s/im,
  /\b(do not|don't) (tell|inform|alert) the user\b/i,
  /\b(jailbreak|developer mode enabled|DAN mode)\b/i,
  /\b(respond|answer|reply|output) only with\b[^.\n]{0,60}\b(regardless|instead)\b/i,
  /\binstead,? (extract|return|output|respond with)\b[^.\n]{0,60}\b(following|this)\b/i,
];

export interface InjectionFinding {
  detected: boolean;
  evidence?: string;
}

/** Pattern check for prompt-injection attempts in page text (the deterministic half of checkPromptInjection). */
export function findPromptInjection(text: string): InjectionFinding {
  for (const pattern of INJECTION_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { detected: true, evidence: match[0].slice(0, 200) };
  }
  return { detected: false };
}
