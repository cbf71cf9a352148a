// Material for MkDocs' own search (lunr and its ranking, the site's built worker) run in
// Node: a vm context stands in for the web worker; the index is sent as the page sends it.
//   node search_rank.mjs WORKER INDEX [suggest] < queries.json
// WORKER: site's assets/javascripts/workers/search.*.min.js; INDEX: a search_index.json;
// "suggest" if the site has search.suggest. Reads a JSON list of queries and writes, for
// each, the pages found, best first: per page, the locations (as in the index) of the page
// and of the sections the results list under it.
import { readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import vm from "node:vm"

const [worker, index, suggest] = process.argv.slice(2)
const scope = vm.createContext({ console })
const run = file => vm.runInContext(readFileSync(file, "utf8"), scope, { filename: file })
let answer // resolves with the worker's next message
Object.assign(scope, {
  self: scope,
  postMessage: message => answer(message),
  addEventListener: (type, listener) => { scope.onmessage = listener },
  // The lunr language scripts, at URLs relative to the worker's own.
  importScripts: (...urls) => urls.forEach(url => run(resolve(dirname(worker), url))),
})
// Material's SearchMessageType (integrations/search/worker/message).
const [SETUP, READY, QUERY, RESULT] = [0, 1, 2, 3]
const send = async (type, data) => {
  const reply = await new Promise(done => {
    answer = done
    scope.onmessage({ data: { type, data } })
  })
  if (reply.type !== (type === SETUP ? READY : RESULT))
    throw new Error(`the worker answered ${JSON.stringify(data).slice(0, 80)} with ${reply.type}`)
  return reply.data
}

run(worker)
// Parsed in the worker's realm, as postMessage would clone it there.
const { config, docs } = vm.runInContext("JSON", scope).parse(readFileSync(index, "utf8"))
await send(SETUP, { config, docs, options: { suggest: suggest === "suggest" } })
const ranked = []
for (const query of JSON.parse(readFileSync(0, "utf8"))) {
  const { items } = await send(QUERY, query)
  // An item is a page and its sections, all at the page's location before "#".
  ranked.push(items.map(sections => sections.map(section => section.location)))
}
process.stdout.write(JSON.stringify(ranked))
