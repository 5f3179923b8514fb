// Syntax highlighting of .game programs in CodeMirror, from the same word lists as the
// editors' TextMate grammar (editors/grundy.tmLanguage.json): one list of keywords for every
// editor, the page included.
import { StreamLanguage } from "@codemirror/language";
import grammar from "../../editors/grundy.tmLanguage.json";

// The words of a pattern written \b(?:a|b|c)\b in the grammar.
function words(pattern) {
  const m = /\(\?:([^)]*)\)/.exec(pattern);
  return m ? m[1].split("|") : [];
}

function lists() {
  const repo = grammar.repository;
  const byScope = {};
  for (const p of repo.keyword.patterns) byScope[p.name] = words(p.match);
  for (const p of repo.constant.patterns) byScope[p.name] = words(p.match);
  return {
    keyword: new Set([...byScope["keyword.control.grundy"], ...byScope["keyword.other.rule.grundy"]]),
    storage: new Set(byScope["storage.type.grundy"]),
    wordOperator: new Set(byScope["keyword.operator.word.grundy"]),
    constant: new Set([...byScope["constant.language.boolean.grundy"], ...byScope["constant.language.outcome.grundy"]]),
    builtin: new Set(words(repo.builtin.match)),
  };
}

const W = lists();

export const grundyLanguage = StreamLanguage.define({
  name: "grundy",
  startState: () => ({ afterDeclaration: false }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match("#")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.peek() === '"') {
      stream.next();
      let escaped = false;
      while (!stream.eol()) {
        const c = stream.next();
        if (c === '"' && !escaped) break;
        escaped = c === "\\" && !escaped;
      }
      return "string";
    }
    if (stream.match(/^[0-9]+/)) return "number";
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word) {
      const w = word[0];
      if (state.afterDeclaration) {
        state.afterDeclaration = false;
        if (!W.storage.has(w)) return "def";
      }
      if (w === "game" || w === "def") {
        state.afterDeclaration = true;
        return "keyword";
      }
      if (W.storage.has(w) || W.keyword.has(w)) return "keyword";
      if (W.wordOperator.has(w)) return "operator";
      if (W.constant.has(w)) return "atom";
      if (W.builtin.has(w) && stream.match(/^\s*\(/, false)) return "builtin";
      return /^[A-Z]/.test(w) ? "typeName" : "variableName";
    }
    if (stream.match(/^(==|!=|<=|>=|->|\.\.|[-+*/%^<>=])/)) return "operator";
    stream.next();
    return /[()[\]{}]/.test(stream.current()) ? "bracket" : null;
  },
  languageData: { commentTokens: { line: "#" } },
});
