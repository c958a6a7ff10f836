# belltower shell integration for bash.
#
# belltower starts an interactive bash as `bash --rcfile THIS_FILE`. bash has already read
# /etc/bash.bashrc by then; this file loads your ~/.bashrc exactly where bash would, then marks
# each prompt and command for belltower (OSC 133) and reports the folder (OSC 7). Your files are
# never changed, and a bash you start yourself inside the tile is a plain bash.
#
#   OSC 133;A                 a prompt is shown (the shell is idle)
#   OSC 133;C;cmdline=%q      a command starts, with its command line when history has it
#   OSC 133;D;STATUS          the command ended, with its exit status
#   OSC 7;file://HOST/PATH    the working folder, when it changes

if [ -r ~/.bashrc ]; then . ~/.bashrc; fi

# PS0 (bash 4.4) is what tells us a command is about to run; without it there are no marks.
if [ -n "${BASH_VERSION-}" ] && [ -z "${__belltower_marks-}" ] &&
  { [ "${BASH_VERSINFO[0]}" -gt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -ge 4 ]; }; }; then
  __belltower_marks=1
  __belltower_running=0
  __belltower_histcmd=0
  __belltower_fresh=0

  __belltower_urlencode() {
    local LC_ALL=C s="$1" out= c n i
    for (( i = 0; i < ${#s}; i++ )); do
      c="${s:i:1}"
      case "$c" in
        [a-zA-Z0-9/._~-]) out+="$c" ;;
        *) printf -v n '%d' "'$c"; printf -v c '%%%02X' $(( n & 255 )); out+="$c" ;;
      esac
    done
    printf '%s' "$out"
  }

  # Runs first of all prompt commands, so $? is still the command's status; it hands the same
  # status on to the prompt commands and the prompt that follow.
  __belltower_prompt() {
    local status=$?
    if [ "$__belltower_running" = 1 ]; then
      builtin printf '\e]133;D;%s\a' "$status"
      __belltower_running=0
    fi
    if [ "$PWD" != "${__belltower_pwd-}" ]; then
      __belltower_pwd="$PWD"
      builtin printf '\e]7;file://%s%s\a' "${HOSTNAME-}" "$(__belltower_urlencode "$PWD")"
    fi
    builtin printf '\e]133;A\a'
    return "$status"
  }

  # PS0 runs this in a subshell, just before the command. The command line is the newest history
  # entry only if history took it (HISTCONTROL=ignorespace, ignoredups and `set +o history` skip
  # some): PS0's own expansion, in the shell itself, compared HISTCMD with the last command's.
  __belltower_preexec() {
    if [ "$__belltower_fresh" = 1 ]; then
      local line
      line="$(HISTTIMEFORMAT= builtin history 1)"
      line="${line#*[0-9] }"
      line="${line#"${line%%[! ]*}"}"
      builtin printf '\e]133;C;cmdline=%q\a' "$line"
    else
      builtin printf '\e]133;C\a'
    fi
  }

  # The subscript's arithmetic runs in the shell itself while PS0 expands, and expands to nothing.
  PS0='${__belltower_none[__belltower_running=1, __belltower_fresh=HISTCMD!=__belltower_histcmd, __belltower_histcmd=HISTCMD]-}$(__belltower_preexec)'"${PS0-}"

  if [[ "$(builtin declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
    PROMPT_COMMAND=(__belltower_prompt "${PROMPT_COMMAND[@]}")
  else
    PROMPT_COMMAND="__belltower_prompt${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
  fi
fi
