// Material for MkDocs' search worker, with each query first rewritten the way readers write
// them (see overrides/README.md). Material 9 has no query hook (9.0 removed
// `search.transform`), so this file stands in front of its worker: the `config` block in
// overrides/main.html names it as the search worker, and it loads Material's worker, which sits
// beside it. It rewrites the text of each query message (type 2), cutting Chinese into the words
// it reads from the index (setup message, type 0); Material's worker ranks as before.
{
  // Material 9.8.2's worker; after an upgrade, its new name (the file beside this one).
  const MATERIAL = "search.a7633da7.min.js"
  // Words that carry no topic: without this, "loss is nan in float16" ranks pages by "is" and
  // "in" (every English term also matches the words it begins), and 什么时候 found sections titled
  // with 什么 and 时候 before the one on pin_memory. The Chinese ones are the same kinds of word,
  // as the index's words (jieba's) spell them: question words, particles, "is", "and", "can", "I".
  const SMALL_WORDS = new Set(("a an and are as at be by can do does for from how i if in into is " +
    "it its my of on or than that the this to vs was what when where which why with " +
    "什么 时候 怎么 怎么办 怎样 如何 为什么 哪 哪个 吗 呢 吧 啊 的 了 是 在 和 与 或 会 能 可以 要 " +
    "一个 这个 我").split(" "))
  // Characters that lunr's query syntax reads as operators (field:, +must, -not, ^boost,
  // ~fuzzy, *wildcard, quotes), and brackets and signs from pasted code and messages: as text
  // they only break the query ("size-incompatible:" becomes a field, "Error(s)" a term "s").
  const SYNTAX = /[:^~*+"'`()[\]{}<>=!?,;|\\]|(?<![\w.])-+/g
  // A dotted API name's dots, between words: each part a word of its own, as the index holds
  // it. Left as typed, "torch.median" was completed part by part (torch* found torchvision).
  const DOT = /(?<=\w)\.(?=[A-Za-z_])/g
  // A run of Chinese characters. The site's build puts a zero-width space between jieba's words,
  // so each run in the index's titles, text and tags is one of its words: WORDS, read from the
  // index the page sends (setup message, type 0). A reader's run is cut into them, the longest
  // word first from the left; a character that begins no word stays alone. Material's worker
  // completes every piece of its own cut, so 不 found 不同 and 对 对应 ("结果不对"), and never
  // ends a piece at a run's last character (归一化 was read as 一): each word gets a character
  // the index lacks (〇), which lets Material's cut keep it whole, and ^1, which stops the
  // completion. A Chinese reader's input method enters whole words, so no word is completed;
  // a lone character that is no word goes like a single letter, unless nothing else is left.
  const HAN = /\p{Script=Han}+/gu
  const WORDS = new Set()
  let longest = 1

  function learn(docs) {
    for (const {title, text, tags} of docs || [])
      for (const word of [title, text, ...(tags || [])].join(" ").match(HAN) || []) {
        WORDS.add(word)
        longest = Math.max(longest, word.length)
      }
  }

  function cut(run) {
    const words = []
    for (let at = 0, size; at < run.length; at += size) {
      size = Math.min(longest, run.length - at)
      while (size > 1 && !WORDS.has(run.slice(at, at + size))) size--
      const word = run.slice(at, at + size)
      words.push(WORDS.has(word) ? `${word}\u3007` : word)
    }
    // No word of the index in it (the English site holds few Chinese words): the run whole,
    // for Material's own cut, rather than characters that would all go as single letters.
    if (run.length > 1 && !words.some(word => word.endsWith("\u3007"))) return ` ${run}\u3007 `
    return ` ${words.join(" ")} `
  }

  // The query as Material's worker should read it, word by word, a dotted name's parts each a
  // word. Small words (but in a dotted name) and single letters go (unless nothing else is
  // left). Material completes every word (torch* finds torchvision, data* datasets): a word
  // before the last is marked whole (^1, a boost that changes nothing but stops the
  // completion); the last is completed, as it is being typed, but matched whole when it ends a
  // dotted name, as a Chinese word always is (torch.cat no longer
  // finds "categorical"; torch.resh finds nothing until reshape is typed whole: completing it
  // as well let torch.where find the torchvision pages first). An in-place name's trailing
  // underscore goes and the rest is completed (add_ finds add_ and add alike).
  function rewrite(query) {
    const words = query.replace(SYNTAX, " ")
      .replace(HAN, cut)
      .split(/\s+/)
      .flatMap(word => word.split(DOT).map((text, at, parts) => ({text, dotted: parts.length > 1})))
      .filter(({text}) => text)
    const small = text => SMALL_WORDS.has(text.replace("\u3007", "").toLowerCase())
    const kept = words.filter(({text, dotted}) =>  // torch.where keeps its where
      !(small(text) && !dotted) && /\P{L}|\p{L}\p{L}/u.test(text))
    const chosen = kept.length ? kept : words
    return chosen
      .map(({text, dotted}, at) => {
        if (/[A-Za-z0-9]_+$/.test(text)) return text.replace(/_+$/, "")
        if (text.endsWith("\u3007")) return `${text}^1`
        if (!/^[\w.]+$/.test(text)) return text
        if (at < chosen.length - 1) return `${text}^1`
        return dotted ? `${text}^1` : text
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
      if (message && message.type === 0) learn(message.data.docs)
      if (message && message.type === 2 && typeof message.data === "string")
        return listener({data: {...message, data: rewrite(message.data)}})
      return listener(event)
    }, ...options)

  // In a worker, this file's address; from disk (iframe-worker's stand-in), its script's.
  const here = self.document ? document.currentScript.src : self.location.href
  importScripts(new URL(MATERIAL, here).href)
}
