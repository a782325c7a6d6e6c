"""The two files Tiled saves a map as: TMX (XML) and TMJ (JSON), read into one
:class:`~.tiled_read.TiledMap` (the header checked first: a hexagonal map with
``staggeraxis="x"``, ``staggerindex="odd"``, finite, within the scenario format's size)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from xml.etree import ElementTree as ET

from game.board.board import MAX_MAP_SIDE

from .tiled_read import (
    MAX_GROUP_DEPTH,
    MAX_TILESETS,
    Shape,
    Tile,
    TiledError,
    TiledMap,
    TileLayer,
    Tileset,
    decode_gids,
    external,
    number,
    parse_json,
    parse_xml,
    read_bytes,
    real,
    tile_props,
    xml_props,
)


def read_tiled(path: str | Path) -> TiledMap:
    """A Tiled map file, by its suffix: ``.tmx`` (XML) or ``.tmj`` / ``.json`` (JSON)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".tmx":
        return _read_tmx(p)
    if suffix in (".tmj", ".json"):
        return _read_tmj(p)
    raise TiledError(f"{p}: not a Tiled map (expected a .tmx or .tmj file)")


def _header(name: str, get: Callable[[str], object]) -> TiledMap:
    """The map's size and geometry; a map hexfire cannot lay out is refused here."""
    orientation = get("orientation")
    if orientation != "hexagonal":
        raise TiledError(
            f"{name}: map: orientation {str(orientation)[:20]!r}: hexfire reads hexagonal maps "
            "only (staggeraxis x, staggerindex odd)"
        )
    for key, want, why in (
        ("staggeraxis", "x", "flat-topped hexes in columns, as hexfire lays them out"),
        ("staggerindex", "odd", "the odd columns half a hex lower, as on an ASL board"),
    ):
        if get(key) != want:
            raise TiledError(
                f"{name}: map: {key} {str(get(key))[:20]!r}: expected {want!r} ({why})"
            )
    if get("infinite") in ("1", 1, True):
        raise TiledError(f"{name}: map: an infinite map is not read (make it a fixed size)")
    limit = f" (the scenario format's limit: 1-{MAX_MAP_SIDE})"
    width = number(get("width"), f"{name}: map: width{limit}", 1, MAX_MAP_SIDE)
    height = number(get("height"), f"{name}: map: height{limit}", 1, MAX_MAP_SIDE)
    tw = number(get("tilewidth"), f"{name}: map: tilewidth", 2, 4096)
    th = number(get("tileheight"), f"{name}: map: tileheight", 2, 4096)
    side = number(get("hexsidelength"), f"{name}: map: hexsidelength", 0, tw)
    return TiledMap(name, width, height, tw, th, side)


def _rotated(x: float, y: float, pts: list[tuple[float, float]], degrees: float) -> tuple:
    """An object's points in map pixels: turned about its origin (clockwise, as Tiled)."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return tuple((x + px * c - py * s, y + px * s + py * c) for px, py in pts)


# --- TMX ----------------------------------------------------------------------------------


def _read_tmx(path: Path) -> TiledMap:
    name = os.fspath(path)
    root = parse_xml(read_bytes(path, "map"), name)
    if root.tag != "map":
        raise TiledError(f"{name}: not a Tiled map (its root element is <{root.tag[:20]}>)")
    m = _header(name, root.get)
    for i, ts in enumerate(root.findall("tileset")):
        if i >= MAX_TILESETS:
            raise TiledError(f"{name}: more than {MAX_TILESETS} tilesets")
        where = f"{name}: tileset {i + 1}"
        first = number(ts.get("firstgid"), f"{where}: firstgid", 1, 2**28)
        if ts.get("source") is None:
            m.tilesets.append(_tmx_tileset(ts, first))
            continue
        data, tname = external(path, ts.get("source"), where)
        if tname.lower().endswith((".tsj", ".json")):
            m.tilesets.append(_tmj_tileset(parse_json(data, tname), first, tname))
            continue
        el = parse_xml(data, tname)
        if el.tag != "tileset":
            raise TiledError(f"{tname}: not a Tiled tileset (its root is <{el.tag[:20]}>)")
        m.tilesets.append(_tmx_tileset(el, first))
    for el, label in _tmx_layers(root, name, 0, m):
        if el.tag == "layer":
            m.layers.append(_tmx_tile_layer(el, label, m))
        else:
            for j, ob in enumerate(el.findall("object")):
                m.shapes.append(_tmx_object(ob, label, j, name))
    return m


def _tmx_tileset(el: ET.Element, first: int) -> Tileset:
    tiles = {}
    for t in el.findall("tile"):
        tid = number(t.get("id"), f"tileset {el.get('name', '')!r}: tile id", 0, 2**28)
        tiles[tid] = Tile(t.get("class") or t.get("type") or "", xml_props(t))
    return Tileset(first, el.get("name", ""), tiles)


def _tmx_layers(
    el: ET.Element, name: str, depth: int, m: TiledMap
) -> Iterator[tuple[ET.Element, str]]:
    """The visible tile and object layers, bottom to top, groups opened (a hidden group or
    layer, an image layer: skipped and said)."""
    if depth > MAX_GROUP_DEPTH:
        raise TiledError(f"{name}: groups nested deeper than {MAX_GROUP_DEPTH}")
    for child in el:
        if child.tag not in ("layer", "objectgroup", "group", "imagelayer"):
            continue
        label = child.get("name", "")
        if child.get("visible") == "0":
            m.skipped.append(f"layer {label!r}: hidden, skipped")
        elif child.tag == "imagelayer":
            m.skipped.append(f"layer {label!r}: an image layer, skipped")
        elif child.tag == "group":
            yield from _tmx_layers(child, name, depth + 1, m)
        else:
            yield child, label


def _tmx_tile_layer(el: ET.Element, label: str, m: TiledMap) -> TileLayer:
    where = f"{m.name}: layer {label!r}"
    for key, want in (("width", m.width), ("height", m.height)):
        if number(el.get(key), f"{where}: {key}", 1, 2**20) != want:
            raise TiledError(f"{where}: {key} {el.get(key)}: expected the map's {want}")
    data = el.find("data")
    if data is None:
        raise TiledError(f"{where}: no <data>")
    if data.find("chunk") is not None:
        raise TiledError(f"{where}: data in chunks (an infinite map) is not read")
    n = m.width * m.height
    if data.get("encoding") is None:
        tiles = [t.get("gid", "0") for t in data.findall("tile")[: n + 1]]
        return TileLayer(label, decode_gids(tiles, None, None, n, where))
    gids = decode_gids(data.text or "", data.get("encoding"), data.get("compression"), n, where)
    return TileLayer(label, gids)


def _tmx_object(ob: ET.Element, layer: str, j: int, name: str) -> Shape:
    title = ob.get("name") or f"#{ob.get('id', j + 1)}"
    where = f"{name}: layer {layer!r}: object {title!r}"
    line = ob.find("polyline")
    if line is None:
        kinds = ("polygon", "ellipse", "point", "text")
        kind = next((k for k in kinds if ob.find(k) is not None), None)
        return Shape(layer, title, kind or ("tile" if ob.get("gid") else "rectangle"))
    pts = []
    for k, pair in enumerate((line.get("points") or "").split()):
        xs = pair.split(",")
        if len(xs) != 2:
            raise TiledError(f"{where}: point {k + 1}: expected x,y")
        pts.append((real(xs[0], f"{where}: point {k + 1}"), real(xs[1], f"{where}: point {k + 1}")))
    x, y = real(ob.get("x", 0), f"{where}: x"), real(ob.get("y", 0), f"{where}: y")
    return Shape(layer, title, "polyline", _rotated(x, y, pts, real(ob.get("rotation", 0), where)))


# --- TMJ ----------------------------------------------------------------------------------


def _read_tmj(path: Path) -> TiledMap:
    name = os.fspath(path)
    doc = parse_json(read_bytes(path, "map"), name)
    if doc.get("type") != "map":
        raise TiledError(f'{name}: not a Tiled map (its "type" is not "map")')
    m = _header(name, doc.get)
    tilesets = doc.get("tilesets", [])
    if not isinstance(tilesets, list) or len(tilesets) > MAX_TILESETS:
        raise TiledError(f"{name}: tilesets: expected a list of at most {MAX_TILESETS}")
    for i, ts in enumerate(tilesets):
        where = f"{name}: tileset {i + 1}"
        if not isinstance(ts, dict):
            raise TiledError(f"{where}: expected an object")
        first = number(ts.get("firstgid"), f"{where}: firstgid", 1, 2**28)
        if "source" not in ts:
            m.tilesets.append(_tmj_tileset(ts, first, where))
            continue
        data, tname = external(path, ts["source"], where)
        if tname.lower().endswith(".tsx"):
            el = parse_xml(data, tname)
            if el.tag != "tileset":
                raise TiledError(f"{tname}: not a Tiled tileset (its root is <{el.tag[:20]}>)")
            m.tilesets.append(_tmx_tileset(el, first))
        else:
            m.tilesets.append(_tmj_tileset(parse_json(data, tname), first, tname))
    for layer, label in _tmj_layers(doc.get("layers"), name, 0, m):
        where = f"{name}: layer {label!r}"
        if layer.get("type") == "tilelayer":
            m.layers.append(_tmj_tile_layer(layer, label, where, m))
            continue
        objects = layer.get("objects", [])
        if not isinstance(objects, list):
            raise TiledError(f"{where}: objects: expected a list")
        for j, ob in enumerate(objects):
            m.shapes.append(_tmj_object(ob, label, j, where))
    return m


def _tmj_tileset(ts: dict, first: int, where: str) -> Tileset:
    tiles = {}
    raw = ts.get("tiles", [])
    if not isinstance(raw, list):
        raise TiledError(f"{where}: tiles: expected a list")
    for t in raw:
        if not isinstance(t, dict):
            raise TiledError(f"{where}: tiles: expected objects")
        tid = number(t.get("id"), f"{where}: tile id", 0, 2**28)
        klass = t.get("class") or t.get("type") or ""
        props = tile_props(t.get("properties"), f"{where}: tile {tid}")
        tiles[tid] = Tile(klass if isinstance(klass, str) else "", props)
    name = ts.get("name", "")
    return Tileset(first, name if isinstance(name, str) else "", tiles)


def _tmj_layers(layers: object, name: str, depth: int, m: TiledMap) -> Iterator[tuple[dict, str]]:
    if depth > MAX_GROUP_DEPTH:
        raise TiledError(f"{name}: groups nested deeper than {MAX_GROUP_DEPTH}")
    if not isinstance(layers, list):
        raise TiledError(f"{name}: layers: expected a list")
    for layer in layers:
        if not isinstance(layer, dict):
            raise TiledError(f"{name}: layers: expected objects")
        label = str(layer.get("name", ""))
        kind = layer.get("type")
        if layer.get("visible") is False:
            m.skipped.append(f"layer {label!r}: hidden, skipped")
        elif kind == "group":
            yield from _tmj_layers(layer.get("layers"), name, depth + 1, m)
        elif kind in ("tilelayer", "objectgroup"):
            yield layer, label
        else:
            m.skipped.append(f"layer {label!r}: a {str(kind)[:20]} layer, skipped")


def _tmj_tile_layer(layer: dict, label: str, where: str, m: TiledMap) -> TileLayer:
    for key, want in (("width", m.width), ("height", m.height)):
        if number(layer.get(key), f"{where}: {key}", 1, 2**20) != want:
            raise TiledError(f"{where}: {key} {layer.get(key)}: expected the map's {want}")
    if "chunks" in layer:
        raise TiledError(f"{where}: data in chunks (an infinite map) is not read")
    data = layer.get("data")
    n = m.width * m.height
    if isinstance(data, list):
        return TileLayer(label, decode_gids(data, None, None, n, where))
    if not isinstance(data, str):
        raise TiledError(f"{where}: data: expected a list of tiles or base64 text")
    enc, comp = layer.get("encoding"), layer.get("compression") or None
    return TileLayer(label, decode_gids(data, str(enc), comp and str(comp), n, where))


def _tmj_object(ob: object, layer: str, j: int, where: str) -> Shape:
    if not isinstance(ob, dict):
        raise TiledError(f"{where}: objects: expected objects")
    title = str(ob.get("name") or f"#{ob.get('id', j + 1)}")[:60]
    at = f"{where}: object {title!r}"
    line = ob.get("polyline")
    if line is None:
        kinds = ("polygon", "ellipse", "point", "text")
        kind = next((k for k in kinds if ob.get(k)), None)
        return Shape(layer, title, kind or ("tile" if ob.get("gid") else "rectangle"))
    if not isinstance(line, list):
        raise TiledError(f"{at}: polyline: expected a list of points")
    pts = []
    for k, p in enumerate(line):
        if not isinstance(p, dict):
            raise TiledError(f"{at}: point {k + 1}: expected {{x, y}}")
        pts.append(
            (real(p.get("x"), f"{at}: point {k + 1}"), real(p.get("y"), f"{at}: point {k + 1}"))
        )
    x, y = real(ob.get("x", 0), f"{at}: x"), real(ob.get("y", 0), f"{at}: y")
    return Shape(layer, title, "polyline", _rotated(x, y, pts, real(ob.get("rotation", 0), at)))
