# belltower's prompt marks for zsh (loaded by .zshenv in this folder).
#
#   OSC 133;A                 a prompt is shown (the shell is idle)
#   OSC 133;C;cmdline=%q      a command starts, with its command line
#   OSC 133;D;STATUS          the command ended, with its exit status
#   OSC 7;file://HOST/PATH    the working folder, when it changes
#
# The hooks are installed at the first prompt, after your .zshrc: prompt frameworks that reset
# their hooks while loading cannot drop ours.

(( ${+__belltower_marks} )) && return 0
typeset -gi __belltower_marks=1 __belltower_running=0
typeset -g __belltower_pwd=''

__belltower_urlencode() {
  builtin emulate -L zsh
  local LC_ALL=C s="$1" out='' c
  local -i i
  for (( i = 1; i <= ${#s}; i++ )); do
    c="${s[i]}"
    if [[ "$c" == [a-zA-Z0-9/._~-] ]]; then
      out+="$c"
    else
      builtin printf -v c '%%%02X' $(( #c & 255 ))
      out+="$c"
    fi
  done
  builtin print -rn -- "$out"
}

__belltower_precmd() {
  local -i status_=$?
  builtin emulate -L zsh
  if (( __belltower_running )); then
    builtin printf '\e]133;D;%s\a' "$status_"
    __belltower_running=0
  fi
  if [[ "$PWD" != "$__belltower_pwd" ]]; then
    __belltower_pwd="$PWD"
    builtin printf '\e]7;file://%s%s\a' "${HOST-}" "$(__belltower_urlencode "$PWD")"
  fi
  builtin printf '\e]133;A\a'
}

__belltower_preexec() {
  builtin emulate -L zsh
  builtin printf '\e]133;C;cmdline=%q\a' "$1"
  __belltower_running=1
}

__belltower_init() {
  builtin emulate -L zsh
  precmd_functions=(__belltower_precmd ${precmd_functions:#__belltower_init})
  preexec_functions+=(__belltower_preexec)
  __belltower_precmd
}

builtin typeset -ga precmd_functions preexec_functions
precmd_functions+=(__belltower_init)
