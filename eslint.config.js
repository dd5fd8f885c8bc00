// ESLint (flat config) for the browser scripts in app/components/static/: the recommended rules, browser
// globals. .ci/run installs ESLint into out/eslint and runs it as
//   NODE_PATH=out/eslint/node_modules out/eslint/node_modules/.bin/eslint app/components/static
// (NODE_PATH: this file's require() finds the packages there, not in a node_modules here).
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  {
    files: ["app/components/static/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      ...js.configs.recommended.rules,
      // `catch (err) { /* keep going */ }` names what it ignores (ESLint 8's default)
      "no-unused-vars": ["error", { caughtErrors: "none" }],
    },
  },
];
