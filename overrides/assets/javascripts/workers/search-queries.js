// Material for MkDocs' search worker, with each query first rewritten the way readers write
// them (see overrides/README.md). Material 9 has no query hook (9.0 removed
// `search.transform`), so this file stands in front of its worker: the `config` block in
// overrides/main.html names it as the search worker, and it loads Material's worker, which sits
// beside it. It rewrites the text of each query message (type 2); Material's worker still cuts
// Chinese into the index's words and ranks as before.
{
  // Material 9.8.2's worker; after an upgrade, its new name (the file beside this one).
  const MATERIAL = "search.a7633da7.min.js"
  // English words that carry no topic: without this, "loss is nan in float16" ranks pages by
  // "is" and "in" (every English term also matches the words it begins).
  const SMALL_WORDS = new Set(("a an and are as at be by can do does for from how i if in into is " +
    "it its my of on or than that the this to vs was what when where which why with").split(" "))
  // Characters that lunr's query syntax reads as operators (field:, +must, -not, ^boost,
  // ~fuzzy, *wildcard, quotes), and brackets and signs from pasted code and messages: as text
  // they only break the query ("size-incompatible:" becomes a field, "Error(s)" a term "s").
  const SYNTAX = /[:^~*+"'`()[\]{}<>=!?,;|\\]|(?<![\w.])-+/g
  // A dotted API name's dots, between words: each part a word of its own, as the index holds
  // it, and matched whole, even at the end of the query (a dotted name is typed whole). Left as
  // typed, "torch.median" was completed part by part (torch* found torchvision first), and
  // "torch.cat" found "categorical".
  const DOT = /(?<=\w)\.(?=[A-Za-z_])/g
  // A run of Chinese characters, which Material's worker cuts into the index's words. Its cut
  // never lets a word end at the run's last character (it tries the run's slices up to, not
  // including, the end), so "归一化" was read as "一" and the like. A character the index lacks
  // (〇) after each run lets the last word be whole; the cut drops it, and the * after it
  // completes that word, as Material completes the other words it cuts.
  const HAN = /\p{Script=Han}+/gu

  // The query as Material's worker should read it. Single letters go with the small words
  // (unless nothing else is left). Material completes every term (torch* finds torchvision,
  // data* datasets): a whole word before the last, and each part of a dotted name, is marked as
  // such (^1, a boost that changes nothing but stops the completion); the last word is still
  // completed, as it is being typed.
  function rewrite(query) {
    const words = query.replace(SYNTAX, " ").replace(HAN, "$&\u3007*").split(/\s+/).filter(Boolean)
    const kept = words.filter(word =>
      !SMALL_WORDS.has(word.toLowerCase()) && /\P{L}|\p{L}\p{L}/u.test(word))
    const chosen = kept.length ? kept : words
    return chosen
      .flatMap((word, at) => {
        const parts = word.split(DOT)
        const whole = parts.length > 1 || at < chosen.length - 1
        return parts.map(part => /\w_+$/.test(part)
          ? part.replace(/_+$/, "")  // in place (add_): completed, to find add_ and add alike
          : whole && /^[\w.]+$/.test(part) ? `${part}^1` : part)
      })
      .join(" ")
  }

  // Material's worker listens with addEventListener("message"): its listener gets the message
  // with the query rewritten.
  const listen = self.addEventListener.bind(self)
  self.addEventListener = (type, listener, ...options) => listen(type, type !== "message"
    ? listener
    : event => {
      const message = event.data
      if (message && message.type === 2 && typeof message.data === "string")
        return listener({data: {...message, data: rewrite(message.data)}})
      return listener(event)
    }, ...options)

  // In a worker, this file's address; from disk (iframe-worker's stand-in), its script's.
  const here = self.document ? document.currentScript.src : self.location.href
  importScripts(new URL(MATERIAL, here).href)
}
