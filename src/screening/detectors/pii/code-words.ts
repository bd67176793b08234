// Words that name a product, order or shipment code, in the languages users write in: a number right after one
// ("SKU 720-44-1982", "commande n° 4471 2290 5538", "Referencia del producto: 655-20-1884", "shipment 3941 8826
// 5510") is that code, not a phone number or an SSN. Shared by pii/phone_number and pii/us_social_security_number,
// which each add words of their own.
const CODE_WORDS = [
  "sku", "skus", "part", "parts", "p/n", "pn", "mpn", "item", "items", "product", "products", "producto", "produit", "prodotto", "produkt",
  "model", "models", "modelo", "modelos", "modèle", "modèles", "modello", "modelli", "modell", "modelle", "article", "artikel", "artículo", "articolo", "art", "catalog", "catalogue",
  "order", "orders", "bestellung", "commande", "pedido", "ordine", "заказ", "invoice", "rechnung", "facture", "factura", "fattura",
  "счёт", "счет", "tracking", "shipment", "shipments", "parcel", "package", "consignment", "awb", "waybill", "sendung", "paket", "colis",
  "envío", "envio", "pacco", "spedizione", "посылка", "отправление", "serial", "ean", "upc", "gtin", "batch", "lot",
]; // prettier-ignore

/** What may stand between the word and the number: "no.", "n°", "#", ":", "number is" ... */
const NUMBER_MARKS = "no\\.?|nr\\.?|n°|nº|№|núm\\.?|number|num|nummer|#|:|is|was|code|id";

/** A regex for a code word (or one of `extra`, regex source) ending the text before a number. */
export function codeWordBefore(extra: readonly string[] = []): RegExp {
  return new RegExp(`(?:^|[^\\p{L}])(?:${[...CODE_WORDS, ...extra].join("|")})(?:\\s*(?:${NUMBER_MARKS}))*\\s*$`, "iu");
}

/**
 * The digit-group shape of a number ("7421-55-9031" -> "0000-00-0000"). A number shaped like one that a code word
 * named earlier in the text is another of those codes: "model 7421-55-9031 or 7421-55-9032", "SKU 720-44-1982,
 * 720-44-1983 and 720-44-1990".
 */
export const codeShape = (raw: string): string => raw.replace(/\d/g, "0");
