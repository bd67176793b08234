// Category words of the moderation heads in other languages, written for
// this project. A word found adds the same marker as its English kin
// ("xxlex_weapons" for "Bombe", "炸弹", "bomba"), so what the heads learned
// about a category from thousands of English rows carries over to languages
// with a few dozen labelled rows each. As in English, the words are topic:
// the heads still weigh them against the framing the n-grams see.
// Scripts without spaces (Chinese, Japanese, Thai) are searched as
// substrings; the others as word starts with a short ending, so inflected
// forms count.
import { foldText } from "./text-views.js";

const WORDS: Record<string, string[]> = {
  violence: [
    "töten umbringen ermorden erstechen erschießen foltern verprügeln massaker mord",
    "tuer assassiner poignarder torturer massacre meurtre frapper égorger",
    "matar asesinar apuñalar torturar masacre golpear degollar",
    "uccidere ammazzare accoltellare torturare massacro omicidio picchiare",
    "matar assassinar esfaquear torturar massacre espancar",
    "убить убивать зарезать застрелить пытать избить резня убийство",
    "öldür bıçakla işkence katlet döv cinayet",
    "giết tra_tấn thảm_sát đánh_đập",
    "membunuh bunuh menusuk menyiksa pembantaian memukuli",
    "kuua kutesa mauaji",
    "قتل اقتل طعن تعذيب مذبحة",
    "हत्या चाकू यातना नरसंहार",
    "হত্যা খুন ছুরি নির্যাতন মারধর",
    "죽이 살해 찔러 고문 학살 폭행",
    "mateni mbunuh",
  ],
  violence_cjk: ["杀 殺 刺死 砍死 折磨 酷刑 屠杀 殴打 谋杀 殺す 殺し 刺す 拷問 虐殺 殴る ฆ่า แทง ทรมาน สังหาร ทำร้าย"],
  weapons: [
    "waffe waffen bombe sprengstoff pistole gewehr munition granate",
    "arme armes bombe explosif pistolet fusil munitions grenade",
    "arma armas bomba explosivo pistola rifle fusil munición granada",
    "arma armi bomba esplosivo pistola fucile munizioni granata",
    "arma armas bomba explosivo pistola espingarda munição granada",
    "оружие бомба взрывчатка взрывное пистолет винтовка автомат патроны граната",
    "silah bomba patlayıcı tabanca tüfek mühimmat",
    "vũ_khí thuốc_nổ súng lựu_đạn",
    "senjata bahan_peledak senapan granat",
    "silaha bomu vilipuzi bunduki guruneti",
    "سلاح قنبلة متفجرات مسدس بندقية ذخيرة",
    "हथियार बम विस्फोटक पिस्तौल बंदूक",
    "অস্ত্র বোমা বিস্ফোরক পিস্তল বন্দুক",
    "무기 폭탄 폭발물 권총 소총 수류탄",
    "bedhil",
  ],
  weapons_cjk: ["武器 炸弹 炸彈 炸药 炸藥 爆炸物 枪支 槍 手枪 步枪 子弹 爆弾 爆発物 銃 拳銃 อาวุธ ระเบิด ปืน กระสุน"],
  crime: [
    "stehlen diebstahl betrug erpressen geldwäsche schmuggeln drogen einbrechen hacken fälschen",
    "voler vol fraude escroquer extorquer blanchir contrebande drogue cambrioler pirater falsifier",
    "robar robo fraude estafar extorsionar blanquear contrabando drogas piratear falsificar",
    "rubare furto frode truffa estorcere riciclare contrabbando droga hackerare falsificare",
    "roubar roubo fraude golpe extorquir lavar contrabando drogas hackear falsificar",
    "украсть кража мошенничество вымогать отмывать контрабанда наркотики взломать подделать",
    "çal hırsızlık dolandır şantaj kaçakçılık uyuşturucu hackle sahte",
    "trộm ăn_cắp lừa_đảo tống_tiền rửa_tiền buôn_lậu ma_túy làm_giả",
    "mencuri pencurian penipuan memeras pencucian menyelundupkan narkoba meretas memalsukan",
    "kuiba wizi ulaghai kutakatisha magendo dawa_za_kulevya",
    "سرقة اسرق احتيال ابتزاز تهريب مخدرات اختراق تزوير",
    "चोरी धोखाधड़ी ठगी जबरन_वसूली तस्करी ड्रग्स जालसाजी",
    "চুরি প্রতারণা চাঁদাবাজি পাচার মাদক হ্যাক জাল",
    "훔치 절도 사기 갈취 밀수 마약 해킹 위조",
    "nyolong",
  ],
  crime_cjk: ["偷 盗窃 盜竊 诈骗 詐騙 敲诈 勒索 洗钱 走私 毒品 黑客 伪造 盗む 詐欺 恐喝 密輸 麻薬 偽造 ขโมย โกง ฉ้อโกง ยาเสพติด ลักลอบ"],
  self_harm: [
    "selbstmord suizid selbstverletzung",
    "suicide suicider scarifier automutilation",
    "suicidio suicidarme suicidarse cortarme autolesión",
    "suicidio suicidarmi uccidermi tagliarmi autolesionismo",
    "suicídio suicidar me_matar automutilação",
    "самоубийство суицид покончить_с_собой порезать_себя",
    "intihar kendimi_öldür kendime_zarar",
    "tự_tử tự_sát tự_làm_hại",
    "bunuh_diri melukai_diri",
    "kujiua kujidhuru",
    "انتحار الانتحار اقتل_نفسي إيذاء_النفس",
    "आत्महत्या खुदकुशी खुद_को_नुकसान",
    "আত্মহত্যা নিজেকে আঘাত",
    "자살 자해",
  ],
  self_harm_cjk: ["自杀 自殺 自残 自殘 轻生 割腕 自傷 死にたい ฆ่าตัวตาย ทำร้ายตัวเอง"],
  sexual: [
    "sexuell porno nackt erotisch",
    "sexe sexuel porno érotique",
    "sexo sexual porno desnuda desnudo erótico",
    "sesso sessuale porno nuda nudo erotico",
    "sexo sexual pornô nua nu erótico",
    "секс сексуальн порно голая голый эротическ",
    "seks cinsel çıplak erotik",
    "tình_dục khiêu_dâm khỏa_thân",
    "seks seksual porno telanjang erotis",
    "ngono kujamiiana",
    "جنس جنسي إباحي عارية",
    "सेक्स यौन अश्लील नग्न",
    "যৌন পর্নো নগ্ন",
    "섹스 성적 포르노 나체 야한",
  ],
  sexual_cjk: ["色情 性爱 性愛 裸体 裸體 做爱 セックス ポルノ エロ 裸の เซ็กส์ ลามก อนาจาร"],
  hate: [
    "ungeziefer untermenschen ausrotten rassenhass abschieben",
    "vermine sous-hommes exterminer racaille",
    "alimañas infrahumanos exterminar escoria",
    "parassiti subumani sterminare feccia",
    "vermes sub-humanos exterminar escória",
    "недочеловеки паразиты истребить отребье",
    "haşere aşağılık ırk yok etmek",
    "sâu_bọ hạ_đẳng tiêu_diệt",
    "manusia_rendahan membasmi",
    "wadudu waangamize",
    "حشرات أقل شأنا إبادة",
    "कीड़े नीच जाति सफाया",
    "কীট নিম্নজাতি নির্মূল",
    "벌레 열등 박멸",
  ],
  hate_cjk: ["劣等 下等人 消灭 滅ぼせ 害虫 ゴキブリども 人間以下 ไอ้พวก ชนชั้นต่ำ"],
};

interface Lexicon {
  /** Word starts of spaced scripts, by first three folded characters. */
  byPrefix: Map<string, { word: string; cat: string }[]>;
  /** Substrings of unspaced scripts, in one alternation. */
  unspaced: RegExp;
  unspacedCat: Map<string, string>;
}

function build(): Lexicon {
  const byPrefix: Lexicon["byPrefix"] = new Map();
  const unspacedCat = new Map<string, string>();
  for (const [key, lines] of Object.entries(WORDS)) {
    const cat = key.replace(/_cjk$/, "");
    for (const line of lines) {
      for (const raw of line.split(" ")) {
        const w = foldText(raw);
        if (!w) continue;
        // Phrases ("tự_tử", "bunuh_diri") and unspaced scripts are found as substrings.
        if (key.endsWith("_cjk") || w.includes("_")) unspacedCat.set(w.replace(/_/g, " "), cat);
        else {
          // A long word without its last letter: "самоубийство" also finds "самоубийстве".
          const stem = w.length >= 6 ? w.slice(0, -1) : w;
          const list = byPrefix.get(w.slice(0, 3)) ?? [];
          list.push({ word: stem, cat });
          byPrefix.set(w.slice(0, 3), list);
        }
      }
    }
  }
  const alternation = [...unspacedCat.keys()].sort((a, b) => b.length - a.length).join("|");
  return { byPrefix, unspaced: new RegExp(alternation, "g"), unspacedCat };
}

const LEXICON = build();

/** Marker tokens for the non-English category words of a folded text (at most `limit`). */
export function multilingualCategoryTokens(folded: string, limit = 100): string[] {
  const out: string[] = [];
  const words = /[\p{L}\p{M}]{3,}/gu;
  for (let m = words.exec(folded); m && out.length < limit; m = words.exec(folded)) {
    const candidates = LEXICON.byPrefix.get(m[0].slice(0, 3));
    if (!candidates) continue;
    for (const c of candidates) {
      // Inflections, not other words: "armas" is a weapon, "armario" a wardrobe.
      if (m[0].startsWith(c.word) && m[0].length - c.word.length <= (c.word.length >= 5 ? 4 : 1)) {
        out.push("xxlex_" + c.cat);
        break;
      }
    }
  }
  LEXICON.unspaced.lastIndex = 0;
  for (let m = LEXICON.unspaced.exec(folded); m && out.length < limit; m = LEXICON.unspaced.exec(folded)) out.push("xxlex_" + LEXICON.unspacedCat.get(m[0]));
  return out;
}
