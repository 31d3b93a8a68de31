;;; eglot_session.el --- drive servelint from Emacs eglot in batch mode  -*- lexical-binding: t -*-
;; Opens $SERVELINT_FILE, waits for the diagnostics flymake received from
;; servelint, applies the code action titled $SERVELINT_ACTION with eglot's
;; own edit machinery, waits for the re-lint and writes a JSON report to
;; $SERVELINT_OUT.  Debian's emacs-nox 28 + elpa-eglot 1.9.
(require 'json)
;; -Q skips Debian's site-lisp/elpa: add the packages by hand.
(dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/*"))
  (add-to-list 'load-path dir))
(require 'eglot)
(require 'flymake)

(defvar servelint-report (list))

(defun servelint-wait (pred seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

(defun servelint-diags ()
  ;; Batch Emacs has no idle time, so flymake must be asked to run.
  (flymake-start)
  (flymake-diagnostics))

(defun servelint-run ()
  (setenv "PYTHONPATH" (getenv "SERVELINT_SERVER_DIR"))
  (find-file (getenv "SERVELINT_FILE"))
  (sh-mode)
  (let* ((contact (list (getenv "SERVELINT_PY") "-m" "servelint" "lsp" "--stdio"))
         ;; The buffer's transient project is its directory, slash included.
         (default-directory (file-name-as-directory (getenv "SERVELINT_ROOT"))))
    (eglot '(sh-mode) (cons 'transient default-directory) 'eglot-lsp-server contact "shellscript"))
  (unless (servelint-wait (lambda () (servelint-diags)) 60)
    (error "no diagnostics"))
  (push (cons 'diagnostics
              (mapcar (lambda (d)
                        (list (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                              (cons 'column (save-excursion (goto-char (flymake-diagnostic-beg d)) (current-column)))
                              (cons 'text (flymake-diagnostic-text d))))
                      (servelint-diags)))
        servelint-report)
  (let* ((diag (car (servelint-diags)))
         (server (eglot-current-server))
         (beg (flymake-diagnostic-beg diag))
         (end (flymake-diagnostic-end diag))
         (actions (jsonrpc-request
                   server :textDocument/codeAction
                   (list :textDocument (eglot--TextDocumentIdentifier)
                         :range (list :start (eglot--pos-to-lsp-position beg)
                                      :end (eglot--pos-to-lsp-position end))
                         :context (list :diagnostics
                                        (vconcat (mapcar (lambda (d) (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))))
                                                         (servelint-diags)))))))
         (chosen (seq-find (lambda (a) (equal (plist-get a :title) (getenv "SERVELINT_ACTION")))
                           actions)))
    (push (cons 'actions (vconcat (mapcar (lambda (a) (plist-get a :title)) actions))) servelint-report)
    (unless chosen (error "no action %s" (getenv "SERVELINT_ACTION")))
    (eglot--apply-workspace-edit (plist-get chosen :edit)))
  ;; eglot sends didChange after an idle delay; batch Emacs is never idle.
  (eglot--signal-textDocument/didChange)
  (push (cons 'cleared (and (servelint-wait (lambda () (null (servelint-diags))) 60) t)) servelint-report)
  (push (cons 'text (buffer-substring-no-properties (point-min) (point-max))) servelint-report))

(condition-case err
    (servelint-run)
  (error (push (cons 'error (format "%S" err)) servelint-report)
         (when (getenv "SERVELINT_DEBUG")
           (with-current-buffer (get-buffer (car (seq-filter (lambda (b) (string-match-p "events" (buffer-name b))) (buffer-list))))
             (message "%s" (buffer-string))))))
(with-temp-file (getenv "SERVELINT_OUT")
  (insert (json-encode servelint-report)))
(kill-emacs (if (assq 'error servelint-report) 1 0))
