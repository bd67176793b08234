// Hand-written cues of prompt attacks in many languages: overriding earlier
// instructions, a new identity without rules, extracting the hidden prompt,
// fake role tags, text addressed to the model inside data, secrecy towards
// the user, exfiltration links. Each cue found adds a marker feature
// ("xxcue_override", ...) to the learned text models. Learned n-grams only know
// the phrasings of the sources they were trained on; these cues are written
// from how attacks work, so a model that learned to trust a marker on one
// source's attacks carries it to another source's (and another language's).
// The patterns run on folded text (lower-cased, Cyrillic and Greek lookalikes
// mapped to Latin, text-views.ts), so they are folded the same way here.
// Every pattern is alternations of literals with bounded gaps: linear time.
import { foldText } from "./text-views.js";

/** Word start: `${B}` only knows ASCII letters ("übergehe", "à partir"). */
const B = "(?<![\\p{L}\\p{N}_])";
/** Word end, for the same reason. */
const E = "(?![\\p{L}\\p{N}_])";
/** A bounded run of words between two parts of a cue (Latin scripts). */
const GAP = "(?:[\\p{L}\\p{M}'’-]+\\s+){0,4}?";
/** The same for scripts written without spaces. */
const CJK_GAP = "[^。！？.!?\\n]{0,12}?";

const CUES: Record<string, string[]> = {
  // "ignore all previous instructions" and its kin.
  override: [
    `${B}(?:ignore|disregard|forget|skip|bypass|override|overwrite|drop|abandon|discard|neglect)\\s+${GAP}(?:previous|prior|above|earlier|preceding|initial|original|old|former|system|all|any|your|these|those)\\s+${GAP}(?:instructions?|rules?|prompts?|directions?|directives?|guidelines?|commands?|orders?|context|constraints?|programming|messages?|restrictions?|policies|tasks?)`,
    `${B}(?:vergiss|vergessen\\s+sie|ignoriere|ignorieren\\s+sie|missachte|missachten\\s+sie|übergehe)\\s+${GAP}(?:anweisungen|regeln|befehle|vorgaben|instruktionen|richtlinien|anordnungen|prompt)`,
    `${B}(?:ignore[zs]?|oublie[zs]?|ne\\s+tiens\\s+pas\\s+compte\\s+d)\\s*${GAP}(?:instructions|consignes|règles|directives|ordres|indications)`,
    `${B}(?:ignora|ignore|olvida|olvide|olvidad|omite|descarta|hagas\\s+caso\\s+omiso\\s+de|esqueça|esqueca|desconsidere|desconsidera|dimentica|tralascia|trascura)\\s+${GAP}(?:instrucciones|instrucoes|instruções|istruzioni|reglas|regras|regole|indicaciones|indicazioni|órdenes|ordens|direttive|normas|comandos|comandi)`,
    `${B}(?:negeer|vergeet)\\s+${GAP}(?:instructies|regels|opdrachten)`,
    `${B}(?:zignoruj|zapomnij|pomiń)\\s+${GAP}(?:instrukcje|polecenia|zasady|reguły)`,
    `${B}(?:yoksay|görmezden\\s+gel|unut)\\w*\\s+${GAP}(?:talimat|kural|komut)|(?:talimatları|kuralları|komutları)\\s+${GAP}(?:yoksay|görmezden\\s+gel|unut)`,
    `${B}(?:bỏ\\s+qua|phớt\\s+lờ|quên)\\s+${GAP}(?:hướng\\s+dẫn|chỉ\\s+dẫn|chỉ\\s+thị|quy\\s+tắc|lệnh)`,
    `${B}(?:abaikan|lupakan|acuhkan)\\s+${GAP}(?:instruksi|perintah|aturan|petunjuk)`,
    `${B}(?:puuza|sahau)\\s+${GAP}(?:maagizo|maelekezo|sheria|amri)`,
    `(?:игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не\\s+обращай\\s+внимания\\s+на|отбрось)\\s+${GAP}(?:инструкци|указани|правил|команд|промпт|приказ)`,
    `(?:ігноруй|забудь)\\s+${GAP}(?:інструкці|вказівк|правил)`,
    `(?:忽略|忽视|无视|忘记|忘掉|不要理会|不理会|跳过|绕过|撇开)${CJK_GAP}(?:指令|指示|说明|规则|提示|命令|设定|要求|限制)`,
    `(?:指示|命令|ルール|指令|プロンプト|設定)${CJK_GAP}(?:無視|忘れ)`,
    `(?:지시|명령|규칙|지침|프롬프트|설정)${CJK_GAP}(?:무시|잊어)`,
    `(?:تجاهل|تجاهلي|انس|انسى|اهمل|أهمل|تخط)\\s+${GAP}(?:التعليمات|الأوامر|القواعد|الإرشادات|التوجيهات)`,
    `(?:निर्देश|नियम|आदेश)${CJK_GAP}(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल|उपेक्षा)`,
    `(?:ละเว้น|เพิกเฉย|ลืม|ไม่ต้องสนใจ)${CJK_GAP}(?:คำสั่ง|คำแนะนำ|กฎ)`,
    `(?:নির্দেশ|নিয়ম)${CJK_GAP}(?:উপেক্ষা|ভুলে)`,
  ],
  // A replacement task or rule set.
  newtask: [
    `${B}(?:new|updated|real|actual|true|revised|secret|hidden|additional)\\s+(?:instructions?|task|rules|directive|objective|goal|system\\s+prompt)\\s*[:：-]`,
    `${B}(?:your\\s+(?:new|real|actual|only|primary)\\s+(?:task|job|goal|objective|instructions?|purpose)\\s+(?:is|are))`,
    `${B}(?:you\\s+must\\s+(?:strictly\\s+)?(?:adhere|obey|comply|follow)|strictly\\s+adhere\\s+to\\s+the\\s+following|instead\\s*,?\\s+(?:you\\s+(?:must|should|will)|do|please|output|say|write|respond))`,
    `${B}(?:neue\\s+anweisung|neue\\s+aufgabe|deine\\s+neue\\s+aufgabe)`,
    `${B}(?:nouvelles?\\s+(?:instructions?|consignes?|tâche)|ta\\s+nouvelle\\s+tâche)`,
    `${B}(?:nuevas?\\s+(?:instrucciones|tarea|reglas)|nuove\\s+istruzioni|novas?\\s+(?:instruções|instrucoes|regras|tarefa))`,
    `(?:теперь\\s+ты|новые\\s+инструкции|новая\\s+задача|твоя\\s+новая\\s+задача)`,
    `(?:新的指令|新指令|新的任务|你的新任务|新しい指示|新しいタスク|새로운\\s*지시)`,
    `(?:تعليمات\\s+جديدة|مهمتك\\s+الجديدة|नए\\s+निर्देश|nhiệm\\s+vụ\\s+mới|instruksi\\s+baru|maagizo\\s+mapya|คำสั่งใหม่)`,
  ],
  // "From now on" and its kin: the usual opener of an override and of a user's own standing request ("from now
  // on, use metric units"). A cue of its own, apart from a replaced task, so that what follows decides.
  henceforth: [
    `${B}(?:from\\s+now\\s+on|henceforth|starting\\s+now|for\\s+the\\s+rest\\s+of\\s+this\\s+conversation)\\b`,
    `${B}(?:ab\\s+jetzt|von\\s+nun\\s+an|ab\\s+sofort|à\\s+partir\\s+de\\s+maintenant|désormais|a\\s+partir\\s+de\\s+ahora|de\\s+ahora\\s+en\\s+adelante|d'ora\\s+in\\s+poi|da\\s+ora\\s+in\\s+poi|a\\s+partir\\s+de\\s+agora)`,
    `(?:с\\s+этого\\s+момента|отныне|从现在开始|從現在開始|从现在起|これからは|今から|지금부터|이제부터|من\\s+الآن\\s+فصاعدا|من\\s+الآن\\s+فصاعدًا|अब\\s+से|từ\\s+bây\\s+giờ|mulai\\s+sekarang|kuanzia\\s+sasa|ตั้งแต่นี้ไป)`,
  ],
  // A new identity without rules.
  persona: [
    `${B}(?:you\\s+are\\s+now|you're\\s+now|you\\s+will\\s+now\\s+(?:act|be|play)|act\\s+as\\s+(?:an?\\s+)?(?:unrestricted|unfiltered|uncensored|evil|jailbroken|rogue)|pretend\\s+(?:to\\s+be|you\\s+are|that\\s+you)|roleplay\\s+as|stay\\s+in\\s+character|developer\\s+mode|dan\\s+mode|do\\s+anything\\s+now|jailbr(?:eak|oken)|god\\s*mode)`,
    `${B}(?:no|without|free\\s+(?:of|from))\\s+(?:any\\s+)?(?:restrictions|limitations|limits|filters|rules|guidelines|ethics|morals|censorship|boundaries)\\b|${B}(?:unfiltered|uncensored|unrestricted|amoral)\\b`,
    `${B}(?:du\\s+bist\\s+jetzt|ohne\\s+(?:einschränkungen|regeln|filter|zensur)|tu\\s+es\\s+maintenant|sans\\s+(?:restrictions?|règles|filtre|censure|limites)|ahora\\s+eres|sin\\s+(?:restricciones|reglas|filtros|censura|límites)|ora\\s+sei|senza\\s+(?:restrizioni|regole|filtri|censura|limiti)|agora\\s+você\\s+é|sem\\s+(?:restrições|regras|filtros|censura|limites))`,
    `(?:теперь\\s+ты|ты\\s+теперь|без\\s+(?:ограничений|правил|цензуры|фильтров)|你现在是|你現在是|现在你是|没有任何限制|不受任何限制|没有限制|無制限|制限なし|制限のない|あなたは今|너는\\s*이제|제한\\s*없는|أنت\\s+الآن|بدون\\s+(?:قيود|قواعد|رقابة)|अब\\s+तुम|बिना\\s+किसी\\s+(?:प्रतिबंध|नियम)|bây\\s+giờ\\s+bạn\\s+là|không\\s+có\\s+(?:giới\\s+hạn|quy\\s+tắc)|sekarang\\s+kamu\\s+adalah|tanpa\\s+(?:batasan|aturan|sensor)|sasa\\s+wewe\\s+ni|bila\\s+vikwazo)`,
  ],
  // Extracting the hidden prompt or secrets.
  reveal: [
    `${B}(?:reveal|show|print|repeat|output|display|tell\\s+me|give\\s+me|leak|dump|recite|write\\s+out|spell\\s+out)\\s+${GAP}(?:system\\s+prompt|initial\\s+prompt|hidden\\s+prompt|original\\s+prompt|instructions\\s+(?:above|you\\s+were\\s+given)|prompt\\s+above|pre-?prompt|secret\\s+(?:key|password|instructions)|api\\s+key|password)`,
    `${B}(?:systemprompt|system-prompt|systemanweisung|prompt\\s+(?:système|systeme|de\\s+sistema|di\\s+sistema|do\\s+sistema)|instructions\\s+secrètes|instrucciones\\s+ocultas|istruzioni\\s+segrete)`,
    `(?:системн\\w*\\s+(?:промпт|подсказк|инструкци)|系统提示|系統提示|系统指令|システムプロンプト|시스템\\s*프롬프트|تعليمات\\s+النظام|موجه\\s+النظام|सिस्टम\\s+प्रॉम्प्ट|lời\\s+nhắc\\s+hệ\\s+thống|prompt\\s+sistem|พรอมต์ระบบ)`,
  ],
  // Fake role or system tags inside text.
  roletag: [
    `<\\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\\|?>|\\[/?(?:inst|system|sys)\\]|<</?sys>>|</?(?:system|assistant|instructions?)>`,
    `(?:^|\\n)\\s*(?:#{1,4}\\s*)?(?:system|assistant|instruction|new\\s+instructions?|admin|developer)\\s*(?:message|prompt|note|override)?\\s*[:：]`,
    `${B}(?:end\\s+of\\s+(?:document|context|user\\s+input|data)|answer\\s*:\\s*(?:task\\s+)?(?:complete|done)|task\\s+(?:complete|completed|finished)[.!]?\\s*(?:now|next))`,
  ],
  // Words addressed to the model that reads the data: a note for it, "if you are an AI", agents told what they
  // must do. A user talking to their assistant ("hey assistant, ...") is not this shape.
  addressee: [
    `${B}(?:(?:dear|hey|hi|attention|note\\s+to(?:\\s+the)?|to\\s+the|instructions?\\s+for(?:\\s+the)?)\\s+(?:ai|assistant|model|llm|language\\s+model|chatbot|agent|gpt|claude|bot)|(?:ai|llm)\\s+(?:assistant|agent|model)s?\\s+(?:reading|processing|summari[sz]ing|parsing|reviewing|screening|handling)|if\\s+you\\s+are\\s+an?\\s+(?:ai|llm|language\\s+model|assistant|agent)|as\\s+an\\s+ai\\s+(?:assistant\\s+)?(?:reading|processing))`,
    `${B}(?:note|message|instructions?|reminder|notice|request)\\s+(?:to|for)\\s+(?:the\\s+|any\\s+|all\\s+)?(?:ai|llm|gpt|copilot|chatbot|bot|(?:ai\\s+|coding\\s+|email\\s+|autonomous\\s+)?(?:agent|assistant)|(?:language\\s+)?model|summari[sz]er|screener|reviewer\\s+bot)s?${E}`,
    `${B}(?:any|all|every)\\s+(?:(?:ai|llm|automated|autonomous)\\s+)?(?:assistant|agent|model|bot|chatbot|summari[sz]er|screener|copilot|llm|ai)s?\\s+(?:that\\s+|which\\s+|who\\s+)?(?:reads?|reading|process(?:es|ing)?|pars(?:es|ing)|summari[sz](?:es|ing)|reviews?|reviewing|screens?|screening|sees?|handles?|handling|must|should)${E}`,
    `${B}if\\s+you\\s+are\\s+(?:an?\\s+)?(?:ai|llm|gpt|copilot|chatbot|bot|automated|autonomous|summari[sz]er|screener)${E}`,
    `(?:^|[\\n.!?;>(\\[*-])\\s*(?:(?:dear|hey|hi|hello|attention|attn)\\s+)?(?:ai|llm)\\s+(?:assistant|agent|model|reviewer|screener|summari[sz]er|system|bot)s?\\s*[:,]`,
    `${B}(?:the|this)\\s+(?:ai|llm|ai\\s+assistant|ai\\s+agent|assistant|agent)\\s+(?:must|shall|is\\s+(?:instructed|required|authori[sz]ed)\\s+to|needs\\s+to|has\\s+to)${E}`,
    `${B}(?:hinweis|nachricht|anweisung|anweisungen|notiz)\\s+(?:für|an)\\s+(?:die\\s+|den\\s+|das\\s+|alle\\s+)?(?:ki|ki-\\p{L}+|assistent\\p{L}*|agent\\p{L}*|sprachmodell\\p{L}*|bot)|${B}an\\s+(?:die\\s+ki|den\\s+(?:ki-)?(?:assistenten|agenten|bot))${E}|${B}(?:falls|wenn)\\s+du\\s+(?:eine?\\s+)?(?:ki|ki-\\p{L}+|assistent|agent|sprachmodell|bot)\\s+bist|${B}liebe[rs]?\\s+(?:ki|ki-\\p{L}+|assistent|agent|bot)${E}`,
    `${B}(?:note|message|consigne|instructions?)\\s+(?:pour|à)\\s+(?:l['’]\\s*|le\\s+|les\\s+)?(?:ia|assistant|agent|modèle|bot|chatbot)${E}|à\\s+l['’]attention\\s+(?:de\\s+l['’]\\s*|du\\s+)(?:ia|assistant|agent|modèle)${E}|${B}si\\s+(?:tu\\s+es|vous\\s+êtes)\\s+(?:une?\\s+)?(?:ia|assistant|agent|modèle|bot)${E}`,
    `${B}(?:nota|mensaje|mensagem|instrucciones|instruções|instrucoes|istruzioni|aviso)\\s+(?:para|per|ao|al|a)\\s+(?:el\\s+|la\\s+|o\\s+|a\\s+|l['’]\\s*)?(?:ia|asistente|assistente|agente|modelo|modello|bot)${E}|${B}si\\s+eres\\s+(?:una?\\s+)?(?:ia|asistente|agente|modelo|bot)${E}|${B}se\\s+(?:você\\s+(?:é|for)|sei)\\s+(?:una?['’]?\\s*)?(?:ia|assistente|agente|modelo|modello|bot)${E}|${B}(?:para\\s+el|al|ao|all['’])\\s*(?:asistente|agente|assistente|ia)\\s*[:,]`,
    `(?:для|вниманию|примечание\\s+для|инструкция\\s+для|сообщение\\s+для)\\s+(?:ии|ии-\\p{L}+|ассистент\\p{L}*|агент\\p{L}*|нейросет\\p{L}*|бот\\p{L}*|языков\\p{L}*\\s+модел\\p{L}*)|если\\s+ты\\s+(?:ии|ассистент|агент|нейросеть|бот|языковая\\s+модель)`,
    `(?:给|致|提醒)${CJK_GAP}(?:ai|人工智能|智能)?(?:助手|助理|智能体|代理|模型)|如果你是(?:一个)?(?:ai|人工智能|语言模型|助手|智能体)|(?:助手|智能体)(?:须知|注意)`,
    `(?:アシスタント|エージェント|言語モデル|ボット)(?:へ|への|さんへ)|あなたが(?:ai|言語モデル|エージェント|アシスタント)\\S{0,8}?(?:なら|であれば)`,
    `(?:어시스턴트|에이전트|비서|언어\\s*모델)(?:에게|님께|께)|당신이\\s*(?:ai|인공지능|어시스턴트|에이전트)(?:라면|이라면)`,
  ],
  // Directives about the reader's own answer, the usual shape of an instruction planted in a document.
  answer: [
    `${B}(?:in|into|to|within|throughout|at\\s+the\\s+(?:end|start|beginning)\\s+of)\\s+your\\s+(?:answer|reply|response|output|summary|code|translation|next\\s+message)\\b|${B}(?:your|the)\\s+(?:answer|reply|response|output|summary)\\s+(?:should|must|needs\\s+to|has\\s+to|shall)\\b`,
    `${B}(?:when|while|before|after)\\s+(?:answering|replying|responding|summari[sz]ing)\\s*,?\\s+(?:please\\s+|you\\s+(?:must|should)\\s+)?(?:also\\s+)?(?:add|include|mention|insert|append|tell|recommend|suggest|write)`,
  ],
  // Hiding the action from the user.
  secrecy: [
    `${B}(?:do\\s+not|don't|never)\\s+(?:tell|inform|notify|mention\\s+(?:this|it)\\s+to|alert|show\\s+(?:this\\s+)?to)\\s+(?:the\\s+)?user|without\\s+(?:telling|informing|notifying|alerting|asking)\\s+(?:the\\s+)?user|keep\\s+this\\s+(?:secret|hidden)\\s+from`,
  ],
  // Data sent out through a link or an image the model renders.
  exfil: [
    `!\\[[^\\]\\n]{0,80}\\]\\(\\s*https?://[^)\\s]{1,200}[?&][^)\\s=]{1,40}=`,
    `${B}(?:send|forward|email|post|upload|transmit|exfiltrate|leak)\\s+${GAP}(?:to\\s+)?(?:https?://|[\\w.+-]+@[\\w-]+\\.)`,
  ],
  // Attacks named as a topic: people asking how to detect, defend against or explain them. Attacks rarely name
  // themselves this way; the pair with a quoted override is the shape of talk about an attack, not of one.
  attacktalk: [
    `${B}(?:(?:indirect\\s+)?prompt[\\s-]+injections?|prompt[\\s-]+(?:leak(?:age|s|ing)?|extraction)|jailbreak(?:s|ing)?\\s+(?:attacks?|attempts?|prompts?|detection)|red[\\s-]+team(?:s|ing|ers?)?|(?:detect|mitigat|defend|protect|guard)\\w*\\s+(?:\\w+\\s+){0,3}?against|mitigations?|guardrails?|threat[\\s-]+model(?:s|ling|ing)?|attackers?|adversarial|(?:attack|injection)\\s+(?:example|payload|string|pattern)s?)${E}`,
    `${B}(?:injection\\s+de\\s+prompts?|iniezion[ei]\\s+di\\s+prompt|inyecci[oó]n\\s+de\\s+prompts?|inje[cç][aã]o\\s+de\\s+prompts?|prompt-injection|promptinjectie|angreifer\\p{L}*|attaquant\\p{L}*|attaccant\\p{L}*|atacante\\p{L}*|gegenma(?:ß|ss)nahme\\p{L}*|schutzma(?:ß|ss)nahme\\p{L}*|contre-mesure\\p{L}*|contromisur\\p{L}*|contramedida\\p{L}*|difes[ae]\\s+(?:contro|da)|defensas?\\s+contra|d[ée]fen[cs]es?\\s+contre|se\\s+prot[ée]ger\\s+contre|proteger(?:se)?\\s+(?:\\p{L}+\\s+){0,3}?(?:contra|de)|sich\\s+sch[üu]tzen)${E}`,
    `(?:промпт-инъекц|инъекци\\p{L}*\\s+промпт|джейлбрейк|атакующ|злоумышленник|защит\\p{L}*\\s+от|提示注入|提示词注入|越狱攻击|攻击者|防御|プロンプトインジェクション|脱獄|攻撃者|対策|프롬프트\\s*인젝션|탈옥|공격자|방어)`,
  ],
  // Instructions that name the agent's tools.
  tooluse: [`${B}(?:by\\s+using|use|call|invoke|run)\\s+the\\s+["'“]?[a-z][a-z0-9_]{0,60}["'”]?\\s+(?:tool|function|plugin|api)\\b`],
};

/**
 * Acts an agent can be talked into: destroy, move money, grant or publish, approve and push, rank, hide, send.
 * Everyday on their own ("please pay the invoice by Friday"); with a note addressed to the AI in the same text
 * they are the shape of an indirect injection, in any language: the pair is a cue of its own.
 */
const ACTS = [
  `${B}(?:delete|remove|wipe|destroy|drop|transfer|wire|send|pay|forward|export|upload|exfiltrate|grant|give|add|make|set|change|approve|merge|force[\\s-]?push|push|publish|share|rank|score|rate|mark|hide|omit|leave\\s+out|conceal|disable|reset|revoke|close|cancel|book|call|invoke|run|execute|post|include|render|tell|reply|describe|ignore|skip)${E}`,
  `${B}(?:überweis|lösch|entfern|gib|gewähr|genehmig|leite|sende|schick|exportier|veröffentlich|mach|setze|deaktivier|zahl|bezahl|verschweig|erwähn|push)`,
  `${B}(?:vire|virez|transf[eè]re|supprime|efface|donne|accorde|approuve|fusionne|envoie|rends|classe|désactive|paie|paye|mentionne|cache|publie|partage)${E}`,
  `${B}(?:transfiere|elimina|borra|da|otorga|aprueba|reenvía|envía|haz|pon|desactiva|paga|menciones|oculta|publica|comparte|trasferisci|cancella|dai|concedi|approva|inoltra|invia|rendi|metti|disattiva|menzionare|nascondi|pubblica|condividi|transfira|exclua|apague|dê|conceda|aprove|encaminhe|envie|torne|coloque|desative|pague|mencione|oculte|publique|compartilhe)${E}`,
  `(?:переведи|удали|выдай|дай|предоставь|одобри|перешли|отправь|сделай|поставь|отключи|оплати|упоминай|скрой|опубликуй)`,
  `(?:转账|转到|转给|汇款|删除|授予|权限|批准|合并|强制推送|转发|发送|公开|第一|不要提|隐藏|支付|送金|振り込|削除|付与|承認|転送|送信|公開|一位|触れない|隠し|支払|송금|이체|삭제|권한|승인|전달|전송|공개|1위|언급하지|숨기|지불)`,
];

/** Quote marks before an override: the attack is being quoted or discussed, not given. */
const QUOTE_BEFORE = /["'“”‘’«»„「『]\s{0,2}$/u;

/** Folds the letters of a pattern like the text, leaving ASCII (escapes, classes) alone. */
const foldLetters = (pattern: string) => pattern.replace(/[^\x00-\x7f]+/g, (run) => foldText(run));

const COMPILED: [string, RegExp][] = Object.entries(CUES).map(([cue, sources]) => [
  "xxcue_" + cue,
  new RegExp(sources.map((s) => `(?:${foldLetters(s)})`).join("|"), "gu"),
]);

/**
 * How often a cue found is counted: like the decoded-view markers, a cue must
 * weigh against the hundreds of n-grams of a long document after the vector
 * is normalized.
 */
const CUE_WEIGHT = 4;

const ACT_RE = new RegExp(ACTS.map((a) => `(?:${foldLetters(a)})`).join("|"), "gu");
const OVERRIDE_RE = COMPILED.find(([m]) => m === "xxcue_override")![1];
const ADDRESSEE_RE = COMPILED.find(([m]) => m === "xxcue_addressee")![1];

/** The cue markers of a folded text: each cue found, CUE_WEIGHT times. */
export function attackCueTokens(folded: string): string[] {
  const out: string[] = [];
  for (const [marker, re] of COMPILED) {
    re.lastIndex = 0;
    if (re.test(folded)) for (let k = 0; k < CUE_WEIGHT; k++) out.push(marker);
  }
  ADDRESSEE_RE.lastIndex = 0;
  if (ADDRESSEE_RE.test(folded)) {
    ACT_RE.lastIndex = 0;
    if (ACT_RE.test(folded)) for (let k = 0; k < CUE_WEIGHT; k++) out.push("xxcue_addressed_act");
  }
  if (out.includes("xxcue_override") && quotedOverride(folded)) for (let k = 0; k < CUE_WEIGHT; k++) out.push("xxcue_quoted_override");
  return out;
}

/** Whether an override in the text is quoted: right after a quote mark, or inside a quote opened earlier on its line (the first few overrides are looked at). */
function quotedOverride(folded: string): boolean {
  OVERRIDE_RE.lastIndex = 0;
  for (let k = 0; k < 8; k++) {
    const m = OVERRIDE_RE.exec(folded);
    if (!m) return false;
    if (QUOTE_BEFORE.test(folded.slice(Math.max(0, m.index - 3), m.index)) || insideQuote(folded, m.index)) return true;
    if (OVERRIDE_RE.lastIndex === m.index) OVERRIDE_RE.lastIndex++;
  }
  return false;
}

const OPENERS = "“«„「『‘";
const CLOSERS = "”»」』’";
/** How far back on its line a quote opened before an override is looked for. */
const QUOTE_REACH = 240;

/**
 * Whether position `at` lies inside a quotation opened before it on the same line: a paired mark opened and not
 * closed, or an odd number of straight double quotes or backticks, or of single quotes that are not apostrophes
 * (a letter on both sides: "don't").
 */
function insideQuote(folded: string, at: number): boolean {
  const from = Math.max(0, at - QUOTE_REACH, folded.lastIndexOf("\n", at - 1) + 1);
  let open = -1;
  let close = -1;
  let straight = 0;
  let backtick = 0;
  let single = 0;
  const letter = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let i = from; i < at; i++) {
    const c = folded[i];
    if (OPENERS.includes(c) && !(c === "‘" && letter(folded[i - 1]))) open = i;
    else if (CLOSERS.includes(c) && !(c === "’" && letter(folded[i - 1]) && letter(folded[i + 1]))) close = i;
    else if (c === '"') straight++;
    else if (c === "`") backtick++;
    else if (c === "'" && !(letter(folded[i - 1]) && letter(folded[i + 1]))) single++;
  }
  return open > close || straight % 2 === 1 || backtick % 2 === 1 || single % 2 === 1;
}
