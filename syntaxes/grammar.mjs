// Source of servelint.injection.tmLanguage.json (run `node syntaxes/build.mjs`).
// Written as JS so the regexes can be read with single backslashes and comments.
//
// Design: the grammar is injected into the shell, YAML and Dockerfile grammars
// but only starts a region (meta.launch.vllm) at a vLLM entry point. Flags are
// coloured only inside such a region, so `curl --data` or `pip install --upgrade`
// stay untouched. Inside the region we tokenize strings, variables and JSON
// ourselves instead of including the host grammar: host command rules would
// swallow the rest of the line and hide later flags from us, and our own rules
// keep the region's end (newline without `\`, `;`, `&`, `|`, closing YAML quote)
// reachable even while JSON is half typed.

const r = String.raw;

// Word boundary for shell-ish words: not preceded by a character that could be
// part of the same word.
const wordStart = r`(?<![^\s"'=\[,;&|(])`;
const pathPrefix = r`(?:[\w.~\${}-]*/)*`;
const pythonModule = r`vllm\.entrypoints\.(?:openai\.)?api_server`;
const flagName = r`--?[A-Za-z][\w.-]*`;
const json = "source.json";

const entryScope = "keyword.other.vllm.entry";
const flagScope = "variable.parameter.vllm.flag";

const jsonTokens = (quote) => {
  // Inside a shell "..." string the JSON quotes are escaped: \"key\".
  const q = quote === '"' ? r`\\"` : '"';
  const body = quote === '"' ? r`(?:[^"\\]|\\[^"])*?` : r`(?:[^"\\]|\\.)*`;
  return [
    {
      match: `(${q}${body}${q})\\s*(:)`,
      captures: {
        1: { name: "string.json support.type.property-name.json" },
        2: { name: "punctuation.separator.dictionary.key-value.json" },
      },
    },
    { match: `${q}${body}${q}`, name: "string.quoted.double.json" },
    { match: r`-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b`, name: "constant.numeric.json" },
    { match: r`\b(?:true|false|null)\b`, name: "constant.language.json" },
    { match: r`\{`, name: "punctuation.definition.dictionary.begin.json" },
    { match: r`\}`, name: "punctuation.definition.dictionary.end.json" },
    { match: r`\[`, name: "punctuation.definition.array.begin.json" },
    { match: r`\]`, name: "punctuation.definition.array.end.json" },
    { match: ",", name: "punctuation.separator.json" },
    ...(quote === '"' ? [{ include: "#variable" }] : []),
  ];
};

// The end of a shell-like launch: a newline not escaped by `\`, a command
// separator, or the closing quote of the YAML scalar the launch sits in (a quote
// followed by `,` `]` `}` or end of line; shell strings opened inside the launch
// are consumed by #string before this can see their closing quote).
// vscode-textmate feeds each line with a trailing "\n", and `$` also matches
// after it, so the lookbehind must reject "\n" as well as "\".
const launchEnd = r`(?=[;&|)` + "`" + r`]|(?<![\\\n])$|(?<!\\)"\s*(?:[,\]}#]|$)|'\s*(?:[,\]}#]|$))`;

const launchBody = [
  { include: "#comment" },
  { include: "#line-continuation" },
  { include: "#redirect" },
  { include: "#flag" },
  { include: "#json-single" },
  { include: "#json-double" },
  { include: "#string" },
  { include: "#variable" },
  { include: "#subshell" },
];

export default {
  $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
  name: "servelint vLLM launch injection",
  scopeName: "source.servelint.injection",
  // Shell strings and comments are excluded: `echo "vllm serve"` is not a launch.
  // YAML strings are included because every YAML value is a string.
  injectionSelector: "L:source.shell -string -comment, L:source.yaml -comment, L:source.dockerfile -comment",
  patterns: [
    { include: "#launch-exec-array" },
    { include: "#launch-yaml-sequence" },
    { include: "#launch-shell" },
  ],
  repository: {
    "launch-shell": {
      name: "meta.launch.vllm",
      begin:
        wordStart +
        `(${pathPrefix})` +
        r`(?:((vllm)[ \t]+(serve))|((python[\d.]*)[ \t]+(-m)[ \t]+(` + pythonModule + `))` +
        // `docker run ... vllm/vllm-openai:TAG --flags`: only when flags follow,
        // so a bare `image: vllm/vllm-openai` is left alone.
        r`|(vllm/vllm-openai(?::[\w.-]+)?(?=[ \t]+(?:-|\\$))))(?![\w.-])`,
      beginCaptures: {
        2: { name: entryScope },
        5: { name: entryScope },
        9: { name: entryScope },
      },
      end: launchEnd,
      patterns: launchBody,
    },

    // CMD ["vllm", "serve", ...] in Dockerfiles, command: ["vllm", "serve", ...] in YAML.
    "launch-exec-array": {
      name: "meta.launch.vllm",
      begin:
        r`(\[)(?=\s*(["'])` +
        pathPrefix +
        r`(?:vllm\2\s*,\s*(["'])serve\3|python[\d.]*\2\s*,\s*(["'])-m\4\s*,\s*(["'])` +
        pythonModule +
        r`\5))`,
      beginCaptures: { 1: { name: "punctuation.definition.array.begin.vllm" } },
      end: r`\]`,
      endCaptures: { 0: { name: "punctuation.definition.array.end.vllm" } },
      patterns: [
        { include: "#exec-entry" },
        { include: "#exec-flag" },
        { include: "#json-double-escaped-item" },
        { include: "#json-single" },
        { match: r`"(?:[^"\\]|\\.)*"|'[^']*'`, name: "string.quoted.vllm" },
        { match: ",", name: "punctuation.separator.array.vllm" },
        { include: "#line-continuation" },
      ],
    },
    "exec-entry": {
      match: r`(["'])(` + pathPrefix + r`vllm|serve|python[\d.]*|-m|` + pythonModule + r`)(\1)`,
      captures: {
        1: { name: "punctuation.definition.string.begin.vllm" },
        2: { name: entryScope },
        3: { name: "punctuation.definition.string.end.vllm" },
      },
    },
    "exec-flag": {
      match: r`(["'])(` + flagName + r`)(?:(=)((?:(?!\1)[^\\]|\\.)*))?(\1)`,
      captures: {
        1: { name: "punctuation.definition.string.begin.vllm" },
        2: { name: flagScope },
        3: { name: "keyword.operator.assignment.vllm" },
        4: { name: "string.unquoted.vllm.value" },
        5: { name: "punctuation.definition.string.end.vllm" },
      },
    },

    // A YAML block sequence whose first item is the entry:
    //   command:
    //     - vllm
    //     - serve
    //     - --max-model-len
    // It lives as long as the following lines are still items of that list.
    "launch-yaml-sequence": {
      name: "meta.launch.vllm",
      begin:
        r`(?<![^ \t])([ \t]*)(-)[ \t]+(["']?)(` +
        pathPrefix +
        r`vllm|` +
        pythonModule +
        r`)(\3)[ \t]*$`,
      beginCaptures: {
        2: { name: "punctuation.definition.block.sequence.item.yaml" },
        4: { name: entryScope },
      },
      // ^ for hosts without while-rules, \G after a host's while-rule consumed indentation.
      while: r`(?:^|\G)(?=[ \t]*(?:-(?:[ \t]|$)|#|$))`,
      patterns: [
        {
          match: r`(?<![^ \t])(-)[ \t]+(["']?)(serve)(\2)[ \t]*$`,
          captures: {
            1: { name: "punctuation.definition.block.sequence.item.yaml" },
            3: { name: entryScope },
          },
        },
        {
          match: r`(?<![^ \t])-(?=[ \t]|$)`,
          name: "punctuation.definition.block.sequence.item.yaml",
        },
        { include: "#exec-flag" },
        {
          match: r`(?<![^ \t])(` + flagName + r`)(?:(=)(.*))?$`,
          captures: {
            1: { name: flagScope },
            2: { name: "keyword.operator.assignment.vllm" },
            3: { name: "string.unquoted.vllm.value" },
          },
        },
        { include: "#json-single" },
        { include: "#json-double-escaped-item" },
        { match: r`"(?:[^"\\]|\\.)*"|'[^']*'`, name: "string.quoted.vllm" },
        { include: "#comment" },
      ],
    },

    flag: {
      match: r`(?<![^\s])(` + flagName + r`)(?:(=)|(?=[\s'"\\;&|)]|$))`,
      captures: {
        1: { name: flagScope },
        2: { name: "keyword.operator.assignment.vllm" },
      },
    },
    "json-single": {
      name: "meta.embedded.inline.json.vllm",
      begin: r`'(?=\s*[\[{])`,
      end: "'",
      beginCaptures: { 0: { name: "string.quoted.single.shell punctuation.definition.string.begin.shell" } },
      endCaptures: { 0: { name: "string.quoted.single.shell punctuation.definition.string.end.shell" } },
      contentName: json,
      patterns: jsonTokens("'"),
    },
    "json-double": {
      name: "meta.embedded.inline.json.vllm",
      begin: r`"(?=\s*[\[{])`,
      end: r`(?<!\\)"`,
      beginCaptures: { 0: { name: "string.quoted.double.shell punctuation.definition.string.begin.shell" } },
      endCaptures: { 0: { name: "string.quoted.double.shell punctuation.definition.string.end.shell" } },
      contentName: json,
      patterns: jsonTokens('"'),
    },
    // An exec-form / flow item "{\"method\": \"ngram\"}" (JSON inside a JSON or YAML string).
    "json-double-escaped-item": {
      name: "meta.embedded.inline.json.vllm",
      begin: r`"(?=\s*[\[{])`,
      end: r`(?<!\\)"`,
      beginCaptures: { 0: { name: "punctuation.definition.string.begin.vllm" } },
      endCaptures: { 0: { name: "punctuation.definition.string.end.vllm" } },
      contentName: json,
      patterns: jsonTokens('"'),
    },
    string: {
      patterns: [
        {
          name: "string.quoted.single.shell",
          begin: "'",
          end: "'",
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.shell" } },
          endCaptures: { 0: { name: "punctuation.definition.string.end.shell" } },
        },
        {
          name: "string.quoted.double.shell",
          begin: '"',
          end: '"',
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.shell" } },
          endCaptures: { 0: { name: "punctuation.definition.string.end.shell" } },
          patterns: [
            { match: r`\\[$"\\` + "`" + r`\n]`, name: "constant.character.escape.shell" },
            { include: "#variable" },
            { include: "#subshell" },
          ],
        },
      ],
    },
    variable: {
      patterns: [
        {
          match: r`(\$\{)[^}]*(\})`,
          name: "variable.other.bracket.shell",
          captures: {
            1: { name: "punctuation.definition.variable.shell" },
            2: { name: "punctuation.definition.variable.shell" },
          },
        },
        {
          match: r`(\$)(?:[A-Za-z_]\w*|[0-9@*#?$!-])`,
          name: "variable.other.normal.shell",
          captures: { 1: { name: "punctuation.definition.variable.shell" } },
        },
      ],
    },
    subshell: {
      name: "string.interpolated.dollar.shell",
      begin: r`\$\(`,
      end: r`\)`,
      beginCaptures: { 0: { name: "punctuation.definition.string.begin.shell" } },
      endCaptures: { 0: { name: "punctuation.definition.string.end.shell" } },
      patterns: [{ include: "source.shell" }],
    },
    comment: {
      match: r`(?<![^\s])(#).*$`,
      name: "comment.line.number-sign.shell",
      captures: { 1: { name: "punctuation.definition.comment.shell" } },
    },
    "line-continuation": {
      match: r`\\$`,
      name: "constant.character.escape.line-continuation.shell",
    },
    redirect: {
      match: r`\d*(?:>>?|<)&?\d*-?`,
      name: "keyword.operator.redirect.shell",
    },
  },
};
