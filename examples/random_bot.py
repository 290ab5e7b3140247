"""A lifearena bot in a few lines: plays a random legal move (see docs/bots.md).

    lifearena ladder war-of-life --bot "random-bot=python3 examples/random_bot.py"
"""

import json
import random
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        random.seed(message["seat"])
    elif message["type"] == "turn":
        choice = random.choice(message["legal"])
        print(json.dumps({"move": choice["move"]}), flush=True)
    elif message["type"] == "end":
        break
