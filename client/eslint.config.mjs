import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "node_modules/", "syntaxes/", "*.vsix"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Template literals with numbers and unknown errors are how we build messages.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // `() => out.show()` is clearer than a braced body for event callbacks.
      "@typescript-eslint/no-confusing-void-expression": "off",
    },
  },
  {
    // node:test's test() returns a promise the runner itself awaits.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-floating-promises": "off" },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { console: "readonly", process: "readonly", URL: "readonly" },
    },
  },
);
