// A tiny UCT in JavaScript that writes its tree and iterations in the mcts-trace format
// (docs/trace_format.md). The game: 7 stones, take 1 or 2, whoever takes the last wins.
// Run: node write_trace.js > tree.json, then: mcts-lab inspect tree.json
"use strict";

function makeNode(id, parent, move, stones, player, mover) {
  return { id, parent, move, stones, player, mover, visits: 0, valueSum: 0, children: [] };
}

function search(iterations, c, seed) {
  let random = seed; // a small linear congruential generator: the same seed, the same file
  const next = () => ((random = (random * 1103515245 + 12345) % 2147483648) / 2147483648);
  const nodes = [makeNode(0, null, null, 7, 0, 0)];
  const trace = [];
  for (let i = 1; i <= iterations; i++) {
    let node = nodes[0];
    const path = [node];
    const expanded = [];
    while (node.stones > 0) {
      const tried = node.children.map((k) => nodes[k].move);
      const untried = ["take 1", "take 2"].filter((m, n) => n < node.stones && !tried.includes(m));
      if (untried.length > 0) {
        const take = untried[0] === "take 1" ? 1 : 2;
        const left = node.stones - take;
        const child = makeNode(nodes.length, node.id, untried[0], left, left > 0 ? 1 - node.player : -1, node.player);
        nodes.push(child);
        node.children.push(child.id);
        expanded.push(child.id);
        path.push(child);
        node = child;
        break;
      }
      const score = (k) => nodes[k].valueSum / nodes[k].visits + c * Math.sqrt(Math.log(node.visits) / nodes[k].visits);
      node = nodes[node.children.reduce((a, b) => (score(b) > score(a) ? b : a))];
      path.push(node);
    }
    // play out at random: the player who takes the last stone wins
    let stones = node.stones;
    let toMove = node.stones > 0 ? node.player : 1 - node.mover;
    while (stones > 0) {
      stones -= stones > 1 && next() < 0.5 ? 2 : 1;
      toMove = 1 - toMove;
    }
    const winner = 1 - toMove;
    const backup = path.map((n) => ({ node: n.id, add: n.mover === winner ? 1 : -1 }));
    path.forEach((n, k) => { n.visits += 1; n.valueSum += backup[k].add; });
    trace.push({ iteration: i, path: path.map((n) => n.id), expanded, leaf: node.id,
      leaf_value: backup[backup.length - 1].add, evaluation: "rollout", backup });
  }
  return { nodes, trace };
}

const { nodes, trace } = search(200, 1.4, 7);
console.log(JSON.stringify({
  format: "mcts-trace", version: 1, game: null, position: "7 stones",
  settings: { c: 1.4 }, seed: 7, iterations: trace.length,
  writer: { name: "write_trace.js", version: "1" },
  values: { range: [-1, 1], view: "edge", zero_sum: true, backup: "mean" },
  visit_rule: "leaf_visit",
  nodes: nodes.map((n) => ({ id: n.id, parent: n.parent, player: n.player, ...(n.move ? { move: n.move } : {}),
    visits: n.visits, value_sum: n.valueSum })),
  trace,
}));
