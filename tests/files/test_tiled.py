"""Maps from Tiled (issue 42): TMX and TMJ to a scenario's [map] and back, and every refusal
one located line (the layer, the hex, the tile, the property), never a traceback."""

import base64
import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from game.board import Board
from game.files.scenario import load_board, parse_scenario
from game.files.shipped import assets_dir, shipped_scenarios
from game.files.tiled import TiledError, map_from_tiled, map_toml, tile_id, write_tiled

ROOT = Path(__file__).resolve().parents[2]

TILESET = """<tileset firstgid="1" name="mine" tilewidth="64" tileheight="56" tilecount="8">
  <tile id="0"><properties><property name="terrain" value="o"/></properties></tile>
  <tile id="1" class="woods"/>
  <tile id="2" type="Stone Building"/>
  <tile id="3"><properties><property name="terrain" value="w"/>
    <property name="level" type="int" value="2"/></properties></tile>
  <tile id="4"><properties><property name="level" value="1"/></properties></tile>
  <tile id="5"><properties><property name="terrain" value="lava"/></properties></tile>
  <tile id="6"><properties><property name="terrain" value="o"/>
    <property name="level" type="int" value="7"/></properties></tile>
 </tileset>"""


def tmx(
    data: str = "1,1,1,\n1,2,3,\n4,1,1",
    *,
    attrs: str = "",
    extra: str = "",
    width: int = 3,
    height: int = 3,
    tileset: str = TILESET,
    encoding: str = 'encoding="csv"',
) -> str:
    head = {
        "orientation": "hexagonal",
        "staggeraxis": "x",
        "staggerindex": "odd",
        "width": str(width),
        "height": str(height),
        "tilewidth": "64",
        "tileheight": "56",
        "hexsidelength": "32",
        "infinite": "0",
    }
    for pair in attrs.split():
        k, v = pair.split("=")
        head[k] = v.strip('"')
    a = " ".join(f'{k}="{v}"' for k, v in head.items())
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.10" {a}>\n {tileset}\n'
        f' <layer id="1" name="ground" width="{width}" height="{height}">\n'
        f"  <data {encoding}>\n{data}\n</data>\n </layer>\n{extra}</map>\n"
    )


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    return p


def refused(path: Path, *words: str) -> str:
    with pytest.raises(TiledError) as e:
        map_from_tiled(path)
    msg = str(e.value)
    assert "\n" not in msg and str(path) in msg, msg
    for w in words:
        assert w in msg, msg
    return msg


def test_a_tmx_map_reads_terrain_from_the_property_or_the_class_and_the_level(tmp_path):
    table, notes = map_from_tiled(write(tmp_path, "m.tmx", tmx()))
    # gid 2: class "woods"; gid 3: the old "type" attribute, a terrain's name; gid 4: w, level 2
    assert table["hexes"] == ["o o o", "o w sb", "w2 o o"]
    assert notes == []


def test_every_shipped_scenario_map_goes_to_tmx_and_back_unchanged(tmp_path):
    for path in shipped_scenarios():
        board = load_board(path)
        out = tmp_path / f"{path.stem}.tmx"
        write_tiled(board, out)
        table, notes = map_from_tiled(out)
        assert notes == []
        assert Board.from_map_table(table).to_map_table() == board.to_map_table(), path.stem


def test_a_tmj_sample_with_zlib_data_a_roads_layer_and_a_polyline(tmp_path):
    gids = [1] * 20  # 5 x 4, open
    gids[7] = 2  # C2 woods (class)
    data = base64.b64encode(zlib.compress(b"".join(g.to_bytes(4, "little") for g in gids)))
    roads = [0] * 20
    roads[0] = 9  # A1: any tile of the roads layer is a road
    doc = {
        "type": "map",
        "orientation": "hexagonal",
        "staggeraxis": "x",
        "staggerindex": "odd",
        "width": 5,
        "height": 4,
        "tilewidth": 64,
        "tileheight": 56,
        "hexsidelength": 32,
        "infinite": False,
        "tilesets": [
            {
                "firstgid": 1,
                "name": "mine",
                "tiles": [
                    {"id": 0, "properties": [{"name": "terrain", "type": "string", "value": "o"}]},
                    {"id": 1, "class": "woods"},
                ],
            }
        ],
        "layers": [
            {
                "type": "tilelayer",
                "name": "ground",
                "width": 5,
                "height": 4,
                "data": data.decode(),
                "encoding": "base64",
                "compression": "zlib",
            },
            {"type": "tilelayer", "name": "Roads", "width": 5, "height": 4, "data": roads},
            {
                "type": "tilelayer",
                "name": "notes",
                "visible": False,
                "width": 5,
                "height": 4,
                "data": [5] * 20,
            },
            {
                "type": "objectgroup",
                "name": "lines",
                "objects": [
                    # from E4's centre (4 * 48 + 32, 3 * 56 + 28 + 28) to E1's (224, 56)
                    {
                        "id": 1,
                        "name": "east road",
                        "x": 224,
                        "y": 224,
                        "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": -168}],
                    },
                    {"id": 2, "name": "a house", "x": 10, "y": 10, "width": 5, "height": 5},
                ],
            },
        ],
    }
    table, notes = map_from_tiled(write(tmp_path, "m.tmj", json.dumps(doc)))
    assert table["hexes"] == ["r o o o r", "o o w o r", "o o o o r", "o o o o r"]
    assert notes == [
        "layer 'notes': hidden, skipped",
        "layer 'lines': object 'a house': a rectangle, skipped",
    ]


def test_a_higher_layer_covers_a_lower_one_and_flipped_tiles_are_the_same_terrain(tmp_path):
    flipped = 2 | 0x80000000
    over = (
        ' <layer id="2" name="trees" width="3" height="1">\n'
        f'  <data encoding="csv">0,{flipped},0</data>\n </layer>\n'
    )
    table, _ = map_from_tiled(write(tmp_path, "m.tmx", tmx("1,1,1", height=1, extra=over)))
    assert table["hexes"] == ["o w o"]


def test_a_converted_map_plays_in_a_scenario(tmp_path):
    table, _ = map_from_tiled(write(tmp_path, "m.tmx", tmx()))
    small = map_toml(table, "m.tmx")
    scenario = (
        'id = "t"\ntitle = "T"\nbriefing = "b"\ndate = "1943-07"\nturns = 3\n'
        + small
        + '[sides.a]\nnationality = "german"\ndefender = true\n'
        '[sides.b]\nnationality = "russian"\nmoves_first = true\n'
        '[[units]]\nid = "a1"\ntype = "pz4h"\nside = "a"\nhex = "A1"\nfacing = 0\n'
        '[[units]]\nid = "b1"\ntype = "t34m43"\nside = "b"\nhex = "C3"\nfacing = 3\n'
        '[[victory]]\nside = "a"\nkind = "eliminate"\ncount = 1\n'
        '[[victory]]\nside = "b"\nkind = "eliminate"\ncount = 1\n'
    )
    sc = parse_scenario(scenario, "t.toml")
    assert sc.setup.board.columns == 3 and sc.setup.board.to_map_table()["hexes"][2] == "w2 o o"


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"attrs": 'orientation="orthogonal"'}, ["map: orientation 'orthogonal'", "hexagonal"]),
        ({"attrs": 'staggeraxis="y"'}, ["map: staggeraxis 'y'", "expected 'x'"]),
        ({"attrs": 'staggerindex="even"'}, ["map: staggerindex 'even'", "expected 'odd'"]),
        ({"attrs": 'infinite="1"'}, ["an infinite map"]),
        ({"attrs": 'width="201"'}, ["map: width", "1-200", "201"]),
        ({"attrs": 'hexsidelength="x"'}, ["map: hexsidelength", "expected an integer"]),
        (
            {"data": "1,1,1,\n1,5,1,\n1,1,1"},
            ["layer 'ground': hex B2: tile 4 of tileset 'mine'", "no terrain property or class"],
        ),
        (
            {"data": "1,1,1,\n1,1,6,\n1,1,1"},
            ["layer 'ground': hex C2: tile 5", "terrain property 'lava'", "unknown terrain"],
        ),
        ({"data": "1,1,1,\n1,1,1,\n1,7,1"}, ["hex B3: tile 6", "level property '7'", "0-4"]),
        ({"data": "1,1,1,\n1,0,1,\n1,1,1"}, ["hex B2: empty in every tile layer"]),
        ({"data": "1,1,1,\n1,99,1,\n1,1,1"}, ["hex B2: tile 98 of tileset 'mine'"]),
        ({"data": "1,1,1,\n1,1,1"}, ["layer 'ground': data: expected 9 tiles, got 6"]),
        ({"data": "1,1,1,\n1,x,1,\n1,1,1"}, ["layer 'ground': data (csv)"]),
        (
            {"data": "AAAA", "encoding": 'encoding="base64" compression="zstd"'},
            ["zstd compression"],
        ),
        ({"data": "!!!", "encoding": 'encoding="base64"'}, ["not valid base64"]),
        ({"tileset": ""}, ["tile gid 1 is in no tileset"]),
    ],
)
def test_each_refusal_is_one_located_line(tmp_path, kwargs, words):
    refused(write(tmp_path, "m.tmx", tmx(**kwargs)), *words)


def test_hostile_files_are_refused_not_followed(tmp_path):
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<map>&b;</map>'
    )
    refused(write(tmp_path, "bomb.tmx", bomb), "a DOCTYPE or entity (refused)")
    refused(write(tmp_path, "bad.tmx", "<map><layer></map>"), ":1: not valid XML")
    refused(write(tmp_path, "bad.tmj", "{"), "not valid JSON")
    refused(write(tmp_path, "deep.tmj", "[" * 100_000 + "]" * 100_000), "not valid JSON")
    refused(write(tmp_path, "list.tmj", "[]"), "expected an object")
    zip_bomb = base64.b64encode(zlib.compress(b"\x01\x00\x00\x00" * 4_000_000)).decode()
    refused(
        write(tmp_path, "zip.tmx", tmx(zip_bomb, encoding='encoding="base64" compression="zlib"')),
        "expected 9 tiles, got 10",
    )
    groups = "<group>" * 100 + "</group>" * 100
    refused(write(tmp_path, "groups.tmx", tmx(extra=groups)), "groups nested deeper than 32")
    ext = tmx(tileset='<tileset firstgid="1" source="/dev/zero"/>')
    refused(
        write(tmp_path, "dev.tmx", ext),
        "tileset 1 (/dev/zero): cannot read the tileset: not a regular file",
    )
    refused(write(tmp_path, "big.tmx", b" " * (8 * 1024 * 1024 + 1)), "larger than 8 MiB")
    refused(write(tmp_path, "m.txt", "x"), "expected a .tmx or .tmj file")
    refused(tmp_path / "missing.tmx", "cannot read the map")
    named = {
        "type": "map",
        "orientation": "hexagonal",
        "staggeraxis": "x",
        "staggerindex": "odd",
        "width": 1,
        "height": 1,
        "tilewidth": 64,
        "tileheight": 56,
        "hexsidelength": 32,
        "tilesets": [{"firstgid": 1, "name": "t", "tiles": []}],
        "layers": [
            {"type": "tilelayer", "name": "\x1b[31mred\u202e", "width": 1, "height": 1, "data": [1]}
        ],
    }
    msg = refused(write(tmp_path, "esc.tmj", json.dumps(named)), "layer '\\x1b[31mred\\u202e'")
    assert "\x1b" not in msg and "\u202e" not in msg


def test_an_external_tileset_tsx_or_tsj_is_read_beside_the_map(tmp_path):
    inner = TILESET.replace(' firstgid="1"', "")
    write(tmp_path, "mine.tsx", '<?xml version="1.0"?>\n' + inner)
    table, _ = map_from_tiled(
        write(tmp_path, "a.tmx", tmx(tileset='<tileset firstgid="1" source="mine.tsx"/>'))
    )
    assert table["hexes"] == ["o o o", "o w sb", "w2 o o"]
    tsj = {"name": "j", "tiles": [{"id": 0, "class": "grain"}]}
    write(tmp_path, "j.tsj", json.dumps(tsj))
    table, _ = map_from_tiled(
        write(
            tmp_path,
            "b.tmx",
            tmx("1", width=1, height=1, tileset='<tileset firstgid="1" source="j.tsj"/>'),
        )
    )
    assert table["hexes"] == ["gr"]


def test_the_shipped_tileset_names_every_terrain_and_level_and_is_up_to_date(tmp_path):
    from game.board.terrain import terrain_catalogue

    folder = assets_dir() / "tiled"
    assert (folder / "hexfire-terrain.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cat = terrain_catalogue()
    levels = cat.max_level + 1
    every = ",".join(str(1 + i) for i in range(len(cat.terrains) * levels))
    doc = tmx(
        every,
        width=levels,
        height=len(cat.terrains),
        tileset=f'<tileset firstgid="1" source="{folder / "hexfire-terrain.tsx"}"/>',
    )
    table, _ = map_from_tiled(write(tmp_path, "all.tmx", doc))
    for t in cat.terrains:
        for level in range(levels):
            i = tile_id(t.id, level, cat)
            token = table["hexes"][i // levels].split()[i % levels]
            assert token == t.code + (str(level) if level else "")
    check = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "data" / "make_tiled_tileset.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stdout + check.stderr
