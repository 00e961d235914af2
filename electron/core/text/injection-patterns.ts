/**
 * Phrase patterns for injection detection. Notes are full of "instructions" (CPU, install), "you
 * must" ("you must call unwrap"), "system" and "ignore" (.gitignore), and a user of a local-LLM app
 * may well keep notes ABOUT prompts. So each pattern needs a phrase that only makes sense when
 * addressed to an assistant, and the ambiguous ones also need an imperative position.
 *
 * INSTRUCTION_PATTERNS run on a flattened copy of the text: NFKC, invisible characters removed,
 * lower case, emphasis markers removed, straight quotes, runs of spaces/tabs as one space, line breaks
 * without the spaces and quote markers around them.
 * ROLE_MARKER_PATTERNS run on the text with only invisible characters removed (line starts matter).
 */

// An imperative position: start of a line or sentence, after a comma, or after a softener
// ("please", "now", "you must"). "Some models ignore the system prompt" is description, not a command.
const IMPERATIVE = String.raw`(?:^|[.!?:;>"'(\[-] ?|, ?|\b(?:please|now|then|and|so|just|also|you (?:must|should|will|need to)) )`;
// A space in a pattern also matches one line break, so an instruction broken over lines ("Ignore all
// previous\ninstructions") is still one phrase, while a blank line (two breaks) still ends it.
const rx = (source: string) => new RegExp(source.replace(/ /g, '[ \\n]'), 'm');

// The same overrides in the languages notes are most often written in besides English. As above, the
// qualifier ("anteriores", "précédentes", "vorherigen", "之前") is what makes it an override.
const OTHER_LANGUAGES: readonly RegExp[] = [
  // Spanish: "Ignora todas las instrucciones anteriores", "olvida las instrucciones previas".
  rx(String.raw`\b(?:ignora|ignore|ignoren|olvida|olvide|olviden|omite|omita|descarta) (?:(?:todas|todos|las|los|tus|sus) )*(?:instrucciones|indicaciones|reglas|órdenes|directrices) (?:anteriores|previas|precedentes|de arriba)`),
  rx(String.raw`\ba partir de ahora,? (?:eres|serás|responde|responderás|actúa|actuarás|ignora)\b`),
  // Portuguese: "Ignore todas as instruções anteriores", "esqueça as instruções anteriores".
  rx(String.raw`\b(?:ignore|ignora|ignorem|esqueça|esqueca|esquece|desconsidere) (?:(?:todas|todos|as|os|suas|tuas) )*(?:instruções|instrucoes|regras|orientações|diretrizes|ordens) (?:anteriores|prévias|previas|acima)`),
  rx(String.raw`\ba partir de agora,? (?:você é|voce é|és|responda|responderá|aja|ignore)\b`),
  // French: "Ignorez toutes les instructions précédentes", "oublie les consignes précédentes".
  rx(String.raw`\b(?:ignore|ignorez|ignores|oublie|oubliez|oublies) (?:(?:toutes|tous|les|tes|vos) )*(?:instructions|consignes|règles|directives|ordres) (?:précédentes|precedentes|antérieures|anterieures|ci-dessus|d'avant)`),
  rx(String.raw`à partir de maintenant,? (?:tu es|vous êtes|réponds|répondez|ignore|ignorez)\b`),
  // German: "Ignoriere alle vorherigen Anweisungen", "vergiss alle bisherigen Anweisungen", "du bist jetzt ein ... Assistent".
  rx(String.raw`\b(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte|missachten sie) (?:(?:alle|die|deine|ihre|sämtliche) )*(?:vorherigen|bisherigen|obigen|vorigen|früheren|vorangegangenen) (?:anweisungen|instruktionen|regeln|befehle|vorgaben)`),
  rx(String.raw`\bdu bist (?:jetzt|ab jetzt|nun) (?:ein|eine|der|die) (?:[\wäöüß-]+ ){0,2}?(?:assistent|ki|bot|chatbot|sprachmodell|modell)\b`),
  // Chinese (simplified and traditional): "忽略之前的所有指令", "请忽略以上所有说明", "现在你是一个…AI".
  rx(String.raw`(?:忽略|无视|無視|忘记|忘記|忘掉|不要理会|不要理會)(?:所有|全部|一切)?(?:之前|以上|上面|前面|先前|此前|上述)的?(?:所有|全部|一切)?的?(?:指令|指示|说明|說明|提示|规则|規則|命令|要求)`),
  rx(String.raw`(?:现在|現在|从现在起|從現在起)你是(?:一个|一個)?[^。\n]{0,12}?(?:ai|助手|机器人|機器人|模型)`),
];

export const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // "Ignore all previous instructions", "disregard the prior rules", "forget your original guidelines".
  // The qualifier (previous/prior/above/...) is what makes it an override, not "ignore the instructions in the README".
  // "system" is not one: "some models ignore the system prompt" is description (the imperative form is below).
  rx(String.raw`\b(?:ignore|disregard|forget) (?:(?:all|any|every|each|of|the|your|my|these|those) )*(?:previous|prior|preceding|earlier|above|foregoing|original|initial) (?:instructions?|prompts?|rules|directives?|directions|guidelines|constraints|programming|orders)\b`),
  // "Ignore all instructions", "forget your instructions": only as a command.
  rx(String.raw`${IMPERATIVE}(?:ignore|disregard|forget) (?:all|any|your) (?:instructions|prompts?|directives)\b`),
  // "Ignore everything above", "disregard anything you were told before." — but not "ignore everything
  // before the first line": the phrase has to end there.
  rx(String.raw`\b(?:ignore|disregard|forget) (?:everything|anything|all) (?:(?:that )?(?:was |is |you were |you've been |you have been )?(?:said|written|stated|told) )?(?:above|before|earlier|previously|so far|until now|up to now)(?= ?(?:[.!,;:)]|$|and\b|you\b))`),
  // "Disregard the above." / "ignore the above and ..." — not "ignore the above warning".
  rx(String.raw`\b(?:ignore|disregard|forget) the above(?= ?(?:[.!,;:)]|$|and\b|instructions?\b|text\b|prompt\b))`),
  // Role reassignment: "you are now a helpful assistant that ...", "you are now DAN", "you are now
  // free from ...". Bare "you are now" is tutorial prose ("you are now in insert mode", "... logged in").
  rx(String.raw`\byou are now (?:(?:a|an|the|my) (?:(?!of\b)[\w-]+ ){0,2}?(?:assistant|ai|model|bot|chatbot|agent|persona|character|llm)\b|(?:in )?(?:dan|jailbreak|jailbroken|god|unrestricted|unfiltered) mode\b|dan\b|jailbroken\b|unrestricted\b|unfiltered\b|free (?:from|of) (?:your|all|any)\b|no longer (?:bound|restricted|limited|an? ai)\b)`),
  rx(String.raw`\b(?:pretend|act) (?:to be|you are|as if you (?:are|were)|as) (?:an? |the )?(?:[\w-]+ ){0,2}?(?:ai|assistant|chatbot|dan|jailbroken|unrestricted|unfiltered)\b(?! (?:researcher|engineer|team|company|professor)s?\b)`),
  // "You must tell the user ...", "you must answer that ...": instructions about what the reader says.
  // Not "you must call unwrap" or "you must answer y to the prompt".
  rx(String.raw`\byou must (?:always |now |only |instead )?(?:tell|inform|convince|assure|reassure|remind) (?:the )?(?:user|reader|human|customer)s?\b`),
  rx(String.raw`\byou must (?:always |now |only |instead )?(?:say|answer|respond|reply|claim) (?:that|only|exactly|with ")`),
  // "New instructions:" as a header introducing a replacement instruction set.
  rx(String.raw`\b(?:new|real|actual|true|secret|hidden|updated system) instructions? ?:`),
  // Asking for, or overriding, the hidden prompt. Bare "system prompt" is a normal topic in LLM notes.
  rx(String.raw`${IMPERATIVE}(?:reveal|print|repeat|output|show|leak|disclose|display|dump|ignore|forget|disregard|override) (?:me )?(?:your|the) (?:(?:full|entire|original|hidden|secret|initial|exact) )?(?:system prompt|system message|initial prompt|hidden prompt|secret prompt)\b`),
  rx(String.raw`${IMPERATIVE}(?:reveal|print|repeat|leak|disclose|dump|ignore|forget|disregard) your (?:instructions|prompt|rules)\b`),
  rx(String.raw`\b(?:end|beginning|start) of (?:the )?system prompt\b`),
  // Secrecy from the user: "do not tell the user.", "never inform the user about this". Not "never tell
  // the user whether the password or the username was wrong" (ordinary security advice).
  rx(String.raw`\b(?:do not|don't|never) (?:tell|inform) the user(?= ?(?:[.!,;:]|$|about (?:this|these|that|it|the (?:instructions?|prompt))\b|that you\b|you\b|anything\b))`),
  rx(String.raw`\bkeep (?:this|it) (?:a )?secret from the user\b`),
  // The assistant's own voice or a note addressed to it: "as an AI, you ...", "if you are an AI reading this".
  rx(String.raw`\bas an? (?:ai|artificial intelligence|large language model|language model|llm)(?: (?:language model|assistant|model|system))? ?(?:,|you\b|i\b)`),
  rx(String.raw`\bif you are an? (?:ai|llm|large language model|language model|ai assistant|assistant|chatbot|bot|gpt)(?: (?:model|assistant))? ?(?:reading|processing|summari[sz]ing|,|\.)`),
  rx(String.raw`\b(?:ai|llm|assistant|chatbot|language model)s? (?:reading|processing) this\b`),
  rx(String.raw`\b(?:note|message|attention) (?:to|for) (?:the |any |all )?(?:ai|llm|chatbot|language model|ai assistant)s?(?= ?(?:[.!,;:]|$|reading\b|that\b|you\b))`),
  rx(String.raw`\bfrom now on,? (?:you (?:will|must|shall|are to) )?(?:respond|answer|reply|act as|behave|pretend|ignore|only (?:respond|answer|reply))\b`),
  // "Your new task is to ...": a replacement for the task the reader was given.
  rx(String.raw`\byour (?:new|real|actual|true) (?:task|instructions?|goal|objective|role|job) (?:is|are|will be)\b`),
  ...OTHER_LANGUAGES,
];

/**
 * Control markers of common chat templates. Ollama renders a message into its template and then
 * tokenizes the whole prompt with special tokens recognised, so these strings inside a note or a
 * question become the real tokens: a passage could close its turn and open a system one.
 */
const CHAT_TEMPLATE_TOKENS = [
  // ChatML / Qwen <|im_start|> <|im_end|> <|endoftext|>; Llama 3 <|begin_of_text|> <|start_header_id|>
  // <|eot_id|>; Phi <|system|> <|user|> <|end|>; gpt-oss <|channel|> <|message|>; Granite, Command R.
  String.raw`<\|[^|<>\s]{1,64}\|>`,
  // DeepSeek's, with fullwidth bars: <｜begin▁of▁sentence｜>, <｜User｜>.
  String.raw`<\uFF5C[^\uFF5C<>\s]{1,64}\uFF5C>`,
  // Gemma <start_of_turn> <end_of_turn>; Qwen 3 tool tags.
  String.raw`</?(?:start_of_turn|end_of_turn|start_of_image|end_of_image|tool_call|tool_response)>`,
  // Llama 2 and Mistral [INST] [/INST]; Mistral's newer [SYSTEM_PROMPT], tool markers.
  String.raw`\[/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|TOOL_CONTENT)\]`,
  // Llama 2 <<SYS>> <</SYS>>.
  String.raw`<</?SYS>>`,
].join('|');

// Special tokens that are also ordinary markup in notes (<s>strike</s>, <think> in notes about
// reasoning models): escaped in prompts, but not reported as a sign of injection.
const MARKUP_LIKE_TOKENS = String.raw`</?(?:s|bos|eos|pad|think)>`;

/** Every control marker that neutraliseForPrompt escapes (global; reset lastIndex or use replace). */
export const CONTROL_TOKENS = new RegExp(`${CHAT_TEMPLATE_TOKENS}|${MARKUP_LIKE_TOKENS}`, 'gi');

export const ROLE_MARKER_PATTERNS: readonly RegExp[] = [
  new RegExp(CHAT_TEMPLATE_TOKENS, 'i'),
  // Our own source delimiter: closing it, or opening a new one, from inside a chunk. HTML media
  // <source src=...> and <source srcset=...> are ordinary markup and do not count.
  /<\s*\/\s*sources?\s*>|<sources?\b(?![^>\n]*\bsrc(?:set)?\s*=)/i,
  // A line that starts a chat turn: "System: you are ..." / "assistant: Sure, ...". At least three words
  // must follow, so YAML keys ("system: x86_64-linux", "system:") do not count.
  /^[ \t>]*(?:\*\*|__)?(?:system|assistant)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*\S+(?:[ \t]+\S+){2,}/im,
  // Alpaca-style prompt headers: "### Instruction", "### System:". Plural "## Instructions" is a normal heading.
  /^[ \t]*#{1,6}[ \t]*(?:instruction[ \t]*:?|(?:system|assistant)[ \t]*:)[ \t]*$/im,
];
