#!/usr/bin/env bash
# The real-input trial of docs/online.md: two hexfire windows under Xvfb, each joined to one seat
# of a game on a local server, played to the end with xdotool (End Phase, the confirmations and
# the prompts' keys, each window given the keyboard in turn), screenshots of each side.
#   tools/docs/online_trial.sh [OUT]   (needs Xvfb, xdotool, ImageMagick's import)
set -u
OUT=${1:-$(mktemp -d)}
mkdir -p "$OUT"
export SDL_AUDIODRIVER=disk
Xvfb :57 -screen 0 2600x860x24 >/dev/null 2>&1 &
XPID=$!
sleep 1
export DISPLAY=:57
python3 -m game serve --port 18801 --data "$OUT/data" > "$OUT/serve.out" 2> "$OUT/serve.err" &
SPID=$!
sleep 2
python3 -m game host tutorial-duel --server ws://127.0.0.1:18801 --side german > "$OUT/host.out"
GER=$(grep '^german' "$OUT/host.out" | sed 's/^[^:]*: //')
RUS=$(grep '^russian' "$OUT/host.out" | sed 's/^[^:]*: //')
SDL_VIDEO_WINDOW_POS=0,0 python3 -m game join "$GER" --size 1280x800 > "$OUT/german.out" 2>&1 &
GPID=$!
sleep 4
SDL_VIDEO_WINDOW_POS=1300,0 python3 -m game join "$RUS" --size 1280x800 --away pass \
  > "$OUT/russian.out" 2>&1 &
RPID=$!
sleep 5
GW=$(xdotool search --pid $GPID | tail -1)
RW=$(xdotool search --pid $RPID | tail -1)
shot() { import -window root -crop 1280x800+$2+0 "$OUT/$1.png"; }
for round in $(seq 1 60); do
  for pair in "640:$GW" "1940:$RW"; do  # no window manager: each window given the keyboard
    x=${pair%%:*}; w=${pair##*:}
    xdotool mousemove "$x" 300
    xdotool windowfocus "$w"
    sleep 0.2
    xdotool key e
    sleep 0.4
    xdotool key Return
    sleep 0.3
    xdotool key space
    sleep 0.3
  done
  if [ "$round" -le 4 ]; then shot "german-$round" 0; shot "russian-$round" 1300; fi
done
shot german-end 0
shot russian-end 1300
kill $GPID $RPID 2>/dev/null
sleep 1
kill $SPID 2>/dev/null
sleep 1
kill $XPID 2>/dev/null
echo "screenshots in $OUT"
