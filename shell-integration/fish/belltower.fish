# belltower shell integration for fish.
#
# belltower starts an interactive fish as `fish --init-command 'source THIS_FILE'`, which runs
# after your own config.fish and conf.d files. It marks each prompt and command for belltower
# (OSC 133) and reports the folder (OSC 7). Your files are never changed.
#
#   OSC 133;A                     a prompt is shown (the shell is idle)
#   OSC 133;C;cmdline_url=...     a command starts, with its command line
#   OSC 133;D;STATUS              the command ended, with its exit status
#   OSC 7;file://HOST/PATH        the working folder, when it changes

status is-interactive; or exit 0
set -q __belltower_marks; and exit 0
set -g __belltower_marks 1

# fish 4 prints these marks itself.
set -l __belltower_major (string split . -- $version)[1]
if test "$__belltower_major" -lt 4
    function __belltower_prompt --on-event fish_prompt
        printf '\e]133;A\a'
    end

    function __belltower_preexec --on-event fish_preexec
        printf '\e]133;C;cmdline_url=%s\a' (string escape --style=url -- "$argv[1]")
    end

    function __belltower_postexec --on-event fish_postexec
        printf '\e]133;D;%s\a' $status
    end
end

function __belltower_folder --on-event fish_prompt
    if test "$PWD" != "$__belltower_pwd"
        set -g __belltower_pwd $PWD
        printf '\e]7;file://%s%s\a' $hostname (string escape --style=url -- $PWD)
    end
end
