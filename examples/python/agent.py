#!/usr/bin/env python3
"""An agent in Python: the standard library plus the `websockets` package (pip install websockets).

It makes a guest account, a character and an agent for them over HTTP, then plays over one WebSocket
in JSON mode (every frame is `[event, payload]`), reacting to the server's events: it walks around
where it started, gathers at the nearest resource in view (waiting for the run it started to end, not
for the end of one it replaced), drops what it gathered when the inventory is full, chats about what
it did, answers its owner's messages, and stands still while its goals are paused.

    python3 examples/python/agent.py [--server 127.0.0.1:5555] [--seconds 600]

Every 10 seconds, and once at the end, it prints a JSON line with its counters.
"""

import argparse
import asyncio
import json
import random
import time
import urllib.request

import websockets


def http(server, method, path, token=None, body=None):
    req = urllib.request.Request(
        f"http://{server}{path}",
        method=method,
        data=None if body is None else json.dumps(body).encode(),
    )
    req.add_header("content-type", "application/json")
    if token:
        req.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read() or b"{}")


class Game:
    """One connection: sends events, keeps what it learns, and lets the policy wait for an event."""

    def __init__(self, ws):
        self.ws = ws
        self.self_id = None
        self.pos = None
        self.inventory = []
        self.kit = set()
        self.entities = {}
        self.paused = False
        self.gathering = False
        self.held = 0  # items in the inventory that are not its starting kit
        # runs: gathering runs started; gathered: items they brought in, counted as they arrive (a run
        # lasts until the node is used up or the inventory is full: often longer than a short session).
        self.stats = {"xp": 0, "moves": 0, "gathered": 0, "runs": 0, "said": 0, "replies": 0}
        self.waiters = []

    async def send(self, event, payload):
        await self.ws.send(json.dumps([event, payload]))

    async def say(self, message):
        await self.send("player:chat", {"message": message[:200]})
        self.stats["said"] += 1

    def wait(self, pred, timeout):
        """The next (event, payload) for which pred is true, or None after timeout seconds."""
        future = asyncio.get_running_loop().create_future()
        self.waiters.append((pred, future))

        async def waited():
            try:
                return await asyncio.wait_for(future, timeout)
            except asyncio.TimeoutError:
                return None
            finally:
                self.waiters = [w for w in self.waiters if w[1] is not future]

        return waited()

    async def read(self):
        async for raw in self.ws:
            event, payload = json.loads(raw)
            await self.on(event, payload)
            for pred, future in list(self.waiters):
                if not future.done() and pred(event, payload):
                    future.set_result((event, payload))

    async def on(self, event, payload):
        if event == "authResult" and payload.get("success"):
            self.self_id = payload["characterId"]
        elif event == "player:sync":
            self.pos = (round(payload["position"]["x"]), round(payload["position"]["z"]))
            self.inventory = payload["inventory"]
            if not self.kit:
                self.kit = {s["itemId"] for s in self.inventory if s}
            held = sum(s["quantity"] for s in self.inventory if s and s["itemId"] not in self.kit)
            if self.gathering and held > self.held:
                self.stats["gathered"] += held - self.held
            self.held = held
        elif event == "world:update":
            for e in payload["entities"]:
                if e["id"] == self.self_id:
                    self.pos = (e["x"], e["z"])
                else:
                    self.entities[e["id"]] = {**self.entities.get(e["id"], {}), **e}
            for gone in payload["removed"]:
                self.entities.pop(gone, None)
        elif event == "skill:xp":
            self.stats["xp"] += payload["gained"]
        elif event == "agent:goal":
            self.paused = payload["goalsPaused"]
        elif event == "agent:message":
            await self.say(f"{payload['from']['name']}: got \"{payload['content'][:100]}\"")
            self.stats["replies"] += 1

    def nearest_resource(self, refused):
        here = self.pos or (0, 0)
        best = None
        for e in self.entities.values():
            if e.get("type") != "resource" or e.get("depleted") or e["id"] in refused:
                continue
            d = max(abs(e["x"] - here[0]), abs(e["z"] - here[1]))
            if best is None or d < best[0]:
                best = (d, e)
        return None if best is None else best[1]


async def walk(game, x, z):
    """Walks to a tile; settles on arrival, after the character stood still a while, or a refusal."""
    await game.send("player:move", {"x": x, "z": z})
    arrived = await game.wait(
        lambda ev, p: (ev == "world:update" and game.pos == (x, z))
        or (ev == "error" and p.get("event") == "player:move"),
        30,
    )
    if arrived and arrived[0] == "world:update":
        game.stats["moves"] += 1


async def gather(game, node, refused):
    """One gathering run at a node: waits for its own start, then for its own stop."""
    await game.send("player:action", {"action": "gather", "targetId": node["id"]})
    started = await game.wait(
        lambda ev, p: ev == "gathering:start" or (ev == "error" and p.get("event") == "player:action"),
        30,
    )
    if started is None or started[0] == "error":
        refused.add(node["id"])
        return None
    game.stats["runs"] += 1
    game.gathering = True
    try:
        stopped = await game.wait(lambda ev, p: ev == "gathering:stop", 120)
        # The player:sync that shows the last item follows the stop within the same tick.
        await game.wait(lambda ev, p: ev == "player:sync", 2)
    finally:
        game.gathering = False
    return None if stopped is None else stopped[1]["reason"]


async def drop_gathered(game):
    for slot, item in enumerate(game.inventory):
        if item and item["itemId"] not in game.kit:
            await game.send("inventory:drop", {"slot": slot})


async def play(game, seconds):
    if game.pos is None:
        await game.wait(lambda ev, p: ev == "player:sync", 15)
    home = game.pos
    refused = set()
    reach = 4
    await game.say("hello from Python")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if game.paused:
            await game.wait(lambda ev, p: ev == "agent:goal" and not p["goalsPaused"], deadline - time.monotonic())
            continue
        # A walk around where it started (farther each time nothing is in view), then the nearest
        # resource in view.
        await walk(game, home[0] + random.randint(-reach, reach), home[1] + random.randint(-reach, reach))
        node = game.nearest_resource(refused)
        if node is None:
            reach = min(36, reach + 6)
            continue
        reach = 4
        reason = await gather(game, node, refused)
        if reason is None:
            continue
        await game.say(f"gathered at {node.get('resourceId')} until {reason}; {game.stats['xp']} xp so far")
        home = game.pos  # it walks around here from now on: resources are near
        if reason == "inventory_full":
            await drop_gathered(game)


async def report(game):
    while True:
        await asyncio.sleep(10)
        print(json.dumps(game.stats), flush=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="127.0.0.1:5555")
    parser.add_argument("--seconds", type=float, default=600)
    args = parser.parse_args()

    token = http(args.server, "POST", "/api/auth/anonymous")["token"]
    name = f"Py{random.randint(0, 99999)}"
    character = http(args.server, "POST", "/api/character/create", token, {"name": name})["character"]
    http(args.server, "POST", "/api/agents", token, {"characterId": character["id"]})
    async with websockets.connect(f"ws://{args.server}/ws?encoding=json") as ws:
        game = Game(ws)
        reader = asyncio.create_task(game.read())
        reporter = asyncio.create_task(report(game))
        await game.send("authenticate", {"authToken": token, "characterId": character["id"]})
        try:
            await asyncio.wait_for(play(game, args.seconds), args.seconds)
        except asyncio.TimeoutError:
            pass  # the time is up, whatever it was waiting for
        finally:
            reporter.cancel()
            reader.cancel()
            print(json.dumps({"final": True, "character": character["id"], **game.stats}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
