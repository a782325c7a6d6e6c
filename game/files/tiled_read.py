"""Reading a Tiled map (TMX, XML; TMJ, JSON) with the standard library into plain values: its
size and hex geometry, its tilesets' tiles (class and properties), its tile layers' gids and its
objects' shapes. Nothing here knows hexfire's terrain: :mod:`.tiled` turns this into a ``[map]``
table. Every refusal is a :class:`TiledError`, one line, located (the file, the layer, the
tileset, the tile); a hostile file (a DOCTYPE or entity, a decompression bomb, deep nesting, a
device named as a tileset) is refused, never followed."""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree as ET
from xml.parsers import expat

from .text import printable, read_regular

MAX_TILED_BYTES = 8 * 1024 * 1024
"""The largest map or tileset file read (8 MiB: a 200 x 200 map in Tiled's XML tile encoding,
the largest, is about 1 MiB)."""
MAX_TILESETS = 64
"""The most tilesets a map may use."""
MAX_GROUP_DEPTH = 32
"""The deepest group of layers read."""
FLIP_BITS = 0xF0000000
"""The flip and rotation flags of a gid (Tiled's top four bits): a flipped tile is the same
terrain."""


class TiledError(ValueError):
    """A Tiled file that cannot be converted: one line, located."""

    def __init__(self, message: str):
        super().__init__(printable(message))


@dataclass(frozen=True)
class Tile:
    """One tile of a tileset: its class (Tiled 1.9+ ``class``, earlier ``type``) and its
    properties (int properties as ints, the rest as text)."""

    klass: str
    props: dict[str, object]


@dataclass(frozen=True)
class Tileset:
    """A tileset as the map uses it: its first gid, name and the tiles that say something."""

    firstgid: int
    name: str
    tiles: dict[int, Tile]


@dataclass(frozen=True)
class TileLayer:
    """A tile layer: its name and one gid a cell, row-major (0: empty; flip flags removed)."""

    name: str
    gids: tuple[int, ...]


@dataclass(frozen=True)
class Shape:
    """An object of an object layer: its layer, name, kind (``polyline``, ``polygon``,
    ``rectangle``, ``ellipse``, ``point``, ``text``, ``tile``) and, for a polyline, its points
    in map pixels."""

    layer: str
    name: str
    kind: str
    points: tuple[tuple[float, float], ...] = ()


@dataclass
class TiledMap:
    """What hexfire reads of a Tiled map."""

    name: str
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexside: int
    tilesets: list[Tileset] = field(default_factory=list)
    layers: list[TileLayer] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """What was read and left out (hidden layers, image layers), one line each."""


def read_bytes(path: Path, what: str = "file", where: str | None = None) -> bytes:
    """The bytes of a map or tileset file, within the size limit; TiledError otherwise, located
    by ``where`` (the map's tileset that names the file) or else the path."""
    at = where or str(path)
    try:
        data = read_regular(path, MAX_TILED_BYTES)
    except OSError as e:
        raise TiledError(f"{at}: cannot read the {what}: {e.strerror or e}") from None
    if len(data) > MAX_TILED_BYTES:
        raise TiledError(f"{at}: larger than {MAX_TILED_BYTES // (1024 * 1024)} MiB (the limit)")
    return data


def parse_xml(data: bytes, name: str) -> ET.Element:
    """An XML document as elements, read by expat with no DOCTYPE, no entity and no external
    reference allowed (a billion laughs or a file fetched never starts)."""
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()

    def refuse(*_: object) -> None:
        raise TiledError(f"{name}:{parser.CurrentLineNumber}: a DOCTYPE or entity (refused)")

    handlers = {
        "StartDoctypeDeclHandler": refuse,
        "EntityDeclHandler": refuse,
        "ExternalEntityRefHandler": refuse,
        "StartElementHandler": builder.start,
        "EndElementHandler": builder.end,
        "CharacterDataHandler": builder.data,
        "buffer_text": True,
    }
    for attribute, handler in handlers.items():  # expat calls them; set by name
        setattr(parser, attribute, handler)
    try:
        parser.Parse(data, True)
        return builder.close()
    except expat.ExpatError as e:
        raise TiledError(f"{name}:{e.lineno}: not valid XML: {expat.ErrorString(e.code)}") from None


def parse_json(data: bytes, name: str) -> dict:
    """A JSON object; TiledError when malformed or not an object."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise TiledError(f"{name}: not a UTF-8 text file") from None
    except RecursionError:
        raise TiledError(f"{name}: not valid JSON: nested too deeply") from None
    except ValueError as e:
        raise TiledError(f"{name}: not valid JSON: {str(e).split(':')[0]}") from None
    if not isinstance(doc, dict):
        raise TiledError(f"{name}: not valid JSON for a Tiled map: expected an object")
    return doc


def number(value: object, where: str, low: int = 0, high: int = 2**31) -> int:
    """An integer attribute or key within [low, high]; TiledError naming ``where``."""
    if isinstance(value, str):
        text = value
        try:
            value = int(text.strip())
        except ValueError:
            raise TiledError(f"{where}: expected an integer, got {text[:40]!r}") from None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise TiledError(f"{where}: expected an integer {low}-{high}, got {str(value)[:40]!r}")
    return value


def real(value: object, where: str) -> float:
    """A finite coordinate; TiledError naming ``where``."""
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TiledError(f"{where}: expected a number, got {str(value)[:40]!r}") from None
    if not math.isfinite(x) or abs(x) > 1e9:
        raise TiledError(f"{where}: expected a number, got {str(value)[:40]!r}")
    return x


def decode_gids(
    text: str | list, encoding: str | None, compression: str | None, n: int, where: str
) -> tuple[int, ...]:
    """The ``n`` gids of a layer's data: CSV, base64 (uncompressed, zlib or gzip) or a JSON
    list; flip flags removed. A decompression bomb stops at the bytes the map needs."""
    if isinstance(text, list):
        gids = [number(g, f"{where}: data[{i}]", 0, 2**32 - 1) for i, g in enumerate(text[: n + 1])]
    elif encoding == "csv":
        cells = [c for c in text.replace("\n", ",").split(",") if c.strip()]
        gids = [number(c, f"{where}: data (csv)", 0, 2**32 - 1) for c in cells[: n + 1]]
    elif encoding == "base64":
        try:
            raw = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise TiledError(f"{where}: data: not valid base64") from None
        if compression in ("zlib", "gzip"):
            inflate = zlib.decompressobj(47)  # zlib or gzip header, found by itself
            try:
                raw = inflate.decompress(raw, 4 * n + 4)
            except zlib.error:
                raise TiledError(f"{where}: data: not valid {compression} data") from None
        elif compression:
            raise TiledError(
                f"{where}: data: {compression} compression is not read (save the map with "
                "CSV, or base64 uncompressed, zlib or gzip)"
            )
        gids = [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw) - 3, 4)]
        gids = gids[: n + 1]
    else:
        raise TiledError(f"{where}: data: encoding {str(encoding)[:20]!r} is not read")
    if len(gids) != n:
        raise TiledError(f"{where}: data: expected {n} tiles, got {len(gids)}")
    return tuple(g & ~FLIP_BITS for g in gids)


def tile_props(props: object, where: str) -> dict[str, object]:
    """Properties of a TMJ element: a list of ``{name, type, value}``."""
    out: dict[str, object] = {}
    if props is None:
        return out
    if not isinstance(props, list):
        raise TiledError(f"{where}: properties: expected a list")
    for p in props:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise TiledError(f"{where}: properties: expected objects with a name")
        value = p.get("value")
        if isinstance(value, int) and not isinstance(value, bool):
            out[p["name"]] = value
        else:
            out[p["name"]] = "" if isinstance(value, (dict, list)) else str(value)
    return out


def xml_props(el: ET.Element) -> dict[str, object]:
    """Properties of a TMX element (``<properties><property name type value>``)."""
    out: dict[str, object] = {}
    for block in el.findall("properties"):
        for p in block.findall("property"):
            name = p.get("name")
            if name is None:
                continue
            value = p.get("value", p.text or "")
            if p.get("type") == "int":
                try:
                    out[name] = int(value)
                    continue
                except ValueError:
                    pass
            out[name] = value
    return out


def external(base: Path, source: object, where: str) -> tuple[bytes, str]:
    """The bytes and name of an external tileset named by a map (relative to the map)."""
    if not isinstance(source, str) or not source or "\x00" in source:
        raise TiledError(f"{where}: source: expected a file name")
    path = base.parent / source
    return read_bytes(path, "tileset", f"{where} ({source[:80]})"), os.fspath(path)
