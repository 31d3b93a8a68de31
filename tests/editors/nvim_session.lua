-- Drives servelint from headless Neovim: open a launch script, wait for the
-- diagnostics Neovim received, apply a code action through Neovim's own API,
-- wait for the re-lint, and write what happened to $SERVELINT_OUT as JSON.
-- Works with Neovim 0.7 (vim.lsp.start_client) and 0.8+ (vim.lsp.start);
-- SERVELINT_NVIM_MODE=config uses 0.11's vim.lsp.config/vim.lsp.enable.
local env = vim.env
local out = { mode = nil, diagnostics = {}, actions = {}, errors = {} }
local cmd = { env.SERVELINT_PY, "-m", "servelint", "lsp", "--stdio" }
local cmd_env = { PYTHONPATH = env.SERVELINT_SERVER_DIR }
local root = env.SERVELINT_ROOT
local wanted_action = env.SERVELINT_ACTION or "Replace with --max-model-len"

local function finish(ok)
  local f = io.open(env.SERVELINT_OUT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd(ok and "qa!" or "cq!")
end

local function start_server(buf)
  if env.SERVELINT_NVIM_MODE == "config" and vim.lsp.config then
    out.mode = "config"
    vim.lsp.config("servelint", { cmd = cmd, cmd_env = cmd_env, filetypes = { "sh" }, root_dir = root })
    vim.lsp.enable("servelint")
  elseif vim.lsp.start and env.SERVELINT_NVIM_MODE ~= "start_client" then
    out.mode = "start"
    vim.lsp.start({ name = "servelint", cmd = cmd, cmd_env = cmd_env, root_dir = root })
  else
    out.mode = "start_client"
    local id = vim.lsp.start_client({ name = "servelint", cmd = cmd, cmd_env = cmd_env, root_dir = root })
    vim.lsp.buf_attach_client(buf, id)
  end
end

local function lsp_diagnostics(buf, lnum)
  -- What to send back in codeAction's context: LSP-shaped diagnostics.
  if vim.lsp.diagnostic.get_line_diagnostics then
    return vim.lsp.diagnostic.get_line_diagnostics(buf, lnum)
  end
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf, { lnum = lnum })) do
    table.insert(found, d.user_data.lsp)
  end
  return found
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(env.SERVELINT_FILE))
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  out.nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor)
  start_server(buf)
  local got = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  if not got then
    table.insert(out.errors, "no diagnostics")
    return false
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      message = d.message, source = d.source, severity = d.severity,
      code = d.code or lsp.code,
    })
  end
  local first = vim.diagnostic.get(buf)[1]
  local client = vim.lsp.get_active_clients({ bufnr = buf })[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = first.lnum, character = first.col },
              ["end"] = { line = first.end_lnum, character = first.end_col } },
    context = { diagnostics = lsp_diagnostics(buf, first.lnum) },
  }
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 30000) or {}
  local chosen
  for _, response in pairs(responses) do
    if response.error then table.insert(out.errors, vim.inspect(response.error)) end
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, action.title)
      if action.title == wanted_action then chosen = action end
    end
  end
  if not chosen then
    table.insert(out.errors, "no action " .. wanted_action)
    return false
  end
  local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = first.lnum, character = first.col },
  }, 30000) or {}
  for _, response in pairs(hover) do
    if response.result then out.hover = response.result.contents.value end
  end
  -- Neovim's own edit machinery; its didChange makes the server re-lint.
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or "utf-16")
  out.cleared = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 50)
  out.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
  return out.cleared
end

vim.api.nvim_create_autocmd("VimEnter", {
  nested = true, -- so :edit inside the callback still sets the filetype
  callback = function()
    local ok, result = pcall(run)
    if not ok then table.insert(out.errors, tostring(result)) end
    finish(ok and result)
  end,
})
