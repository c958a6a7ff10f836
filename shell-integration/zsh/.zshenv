# belltower shell integration for zsh.
#
# belltower starts an interactive zsh with ZDOTDIR pointing here, and your own ZDOTDIR (if you had
# one) in BELLTOWER_ZDOTDIR. This file puts ZDOTDIR back and loads your .zshenv, so every later
# file (.zprofile, .zshrc, .zlogin) is yours, read from where zsh always reads it. Then it loads
# belltower.zsh, which marks prompts and commands once your .zshrc has run. Your files are never
# changed, and a zsh you start yourself inside the tile is a plain zsh.

if [[ -n "${BELLTOWER_ZDOTDIR+X}" ]]; then
  'builtin' 'export' ZDOTDIR="$BELLTOWER_ZDOTDIR"
  'builtin' 'unset' 'BELLTOWER_ZDOTDIR'
else
  'builtin' 'unset' 'ZDOTDIR'
fi

{
  'builtin' 'typeset' __belltower_file="${ZDOTDIR-$HOME}/.zshenv"
  [[ ! -r "$__belltower_file" ]] || 'builtin' 'source' '--' "$__belltower_file"
} always {
  if [[ -o 'interactive' ]]; then
    # ${(%):-%x} is this file; :A:h its folder.
    __belltower_file="${${(%):-%x}:A:h}/belltower.zsh"
    [[ ! -r "$__belltower_file" ]] || 'builtin' 'source' '--' "$__belltower_file"
  fi
  'builtin' 'unset' '__belltower_file'
}
