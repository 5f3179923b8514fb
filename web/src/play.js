// Play a position against the computer, as `play` does in the REPL: the person moves first
// by choosing one of the options (buttons), Hint shows which options win, and the computer
// answers with a winning move when it has one (else one that keeps a draw, else the one
// that leaves the most options). The game is played on the definitions of the last run.
const MOVE_LIMIT = 300; // a loopy game may go round for ever: a draw after this many moves

export class Play {
  constructor(root, ask) {
    this.ask = ask;
    this.root = root;
    root.innerHTML = `
      <div class="play-bar">
        <label>Play <input class="play-position" value="Kayles(3) + Kayles(4)" spellcheck="false"
          aria-label="position to play"></label>
        <button class="play-start">Start</button>
        <button class="play-hint" disabled>Hint</button>
      </div>
      <div class="play-state"></div>
      <div class="play-options"></div>
      <ol class="play-log"></ol>`;
    this.input = root.querySelector(".play-position");
    this.state = root.querySelector(".play-state");
    this.options = root.querySelector(".play-options");
    this.log = root.querySelector(".play-log");
    this.hintButton = root.querySelector(".play-hint");
    root.querySelector(".play-start").onclick = () => this.start();
    this.input.onkeydown = (e) => e.key === "Enter" && this.start();
    this.hintButton.onclick = () => root.classList.toggle("hinting");
  }

  // A new run replaced the session: a game in progress is over.
  refresh() {
    if (this.current) this.say("The program was run again: press Start to play on its definitions.");
    this.current = null;
    this.options.replaceChildren();
    this.hintButton.disabled = true;
  }

  say(text, cls = "") {
    this.state.textContent = text;
    this.state.className = `play-state ${cls}`;
  }

  note(text) {
    this.log.append(Object.assign(document.createElement("li"), { textContent: text }));
  }

  async call(request) {
    try {
      const r = await this.ask({ play: request });
      if (r.error) {
        this.say(r.error.trim(), "lost");
        this.current = null;
        this.options.replaceChildren();
        return null;
      }
      return r;
    } catch (e) {
      this.say(`stopped: ${e.message}`, "lost");
      this.current = null;
      return null;
    }
  }

  async start() {
    this.log.replaceChildren();
    this.root.classList.remove("hinting");
    this.moves = 0;
    const r = await this.call({ start: this.input.value });
    if (!r) return;
    this.note(`Start: ${r.position} (${r.note})`);
    this.show(r, "You move first.");
  }

  // The person moves from r; after the game ends (nobody can move), who won.
  show(r, lead) {
    this.current = r;
    this.options.replaceChildren();
    if (this.ended(r, true)) return;
    this.hintButton.disabled = false;
    this.say(`${lead} Position: ${r.position}. Your move:`);
    r.options.forEach((o, i) => {
      const b = document.createElement("button");
      b.className = o.winning ? "option winning" : "option";
      b.textContent = o.text;
      b.onclick = () => this.move(i);
      this.options.append(b);
    });
  }

  // Whether the game is over at r, which `personToMove` has to move from: with no options
  // the player to move wins exactly when r's outcome is N (misère play: the last move loses).
  ended(r, personToMove) {
    if (this.moves >= MOVE_LIMIT) {
      this.say(`A draw: ${MOVE_LIMIT} moves were played and the game goes on.`, "draw");
      return true;
    }
    if (r.options.length > 0) return false;
    const moverWins = r.outcome === "N";
    const personWins = moverWins === personToMove;
    const who = personToMove ? "You cannot" : "The computer cannot";
    this.say(`${who} move from ${r.position}. ${personWins ? "You win!" : "The computer wins."}`, personWins ? "won" : "lost");
    this.hintButton.disabled = true;
    this.current = null;
    return true;
  }

  async move(i) {
    if (this.busy) return; // one move at a time: the answer to this one comes first
    this.busy = true;
    try {
      await this.moveAndAnswer(i);
    } finally {
      this.busy = false;
    }
  }

  async moveAndAnswer(i) {
    for (const b of this.options.querySelectorAll("button")) b.disabled = true;
    const r = await this.call({ move: i });
    if (!r) return;
    this.moves++;
    this.note(`You: ${r.position}`);
    if (this.ended(r, false)) {
      this.options.replaceChildren();
      return;
    }
    this.say("The computer is thinking…");
    const c = await this.call({ computer: true });
    if (!c) return;
    this.moves++;
    this.note(`Computer: ${c.played}`);
    this.show(c, `The computer played ${c.played}.`);
  }
}
