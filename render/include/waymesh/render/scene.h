#pragma once
// The drawing description both picture writers (PNG via cairo, SVG as text) render: a canvas
// size and an ordered list of simple items in pixel coordinates (origin top left, y down).
// Builders decide what to draw; writers only know how.

#include <string>
#include <variant>
#include <vector>

#include "waymesh/render/color.h"

namespace waymesh::render {

// A point in pixels.
struct Point2 {
  float x = 0, y = 0;
};

// A navmesh polygon (SVG <polygon>; nothing else is written as one). `tag` becomes its class.
struct ScenePolygon {
  std::vector<Point2> points;
  Rgba fill;
  Rgba stroke;
  float stroke_width = 0;  // 0: no outline
  std::string tag;
};

// An axis-aligned rectangle: legend swatches and panels.
struct SceneRect {
  Point2 min;
  float width = 0, height = 0;
  Rgba fill;
  Rgba stroke;
  float stroke_width = 0;
};

// An open (or closed) line: paths, tile borders.
struct ScenePolyline {
  std::vector<Point2> points;
  Rgba color;
  float width = 1;
  bool dashed = false;
  bool closed = false;
};

// A line with a head at `to`: off-mesh links.
struct SceneArrow {
  Point2 from, to;
  Rgba color;
  float width = 1;
  float head = 6;  // head length, px
};

// Waypoints and markers.
struct SceneCircle {
  Point2 center;
  float radius = 2;
  Rgba fill;
  Rgba stroke;
  float stroke_width = 0;
};

// One line of text; `pos` is the left end of its baseline.
struct SceneText {
  Point2 pos;
  std::string text;
  float size = 12;  // px
  Rgba color;
};

using SceneItem =
    std::variant<ScenePolygon, SceneRect, ScenePolyline, SceneArrow, SceneCircle, SceneText>;

// A whole picture: canvas size, background and the items in drawing order.
struct Scene {
  int width = 0, height = 0;  // px
  Rgba background{255, 255, 255, 255};
  std::string title;             // SVG <title>
  std::vector<SceneItem> items;  // drawn in order

  // Appends an item. Out of line, so one place instantiates the vector's growth for the variant
  // (GCC 12 reports false maybe-uninitialized warnings wherever it is inlined).
  void Add(SceneItem item);
};

}  // namespace waymesh::render
