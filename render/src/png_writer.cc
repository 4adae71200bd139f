#include "waymesh/render/png_writer.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include <cmath>
#include <memory>

#include "absl/strings/str_cat.h"

namespace waymesh::render {
namespace {

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

void SetColor(cairo_t* cr, Rgba c) {
  cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0);
}

void TracePoints(cairo_t* cr, const std::vector<Point2>& points) {
  for (size_t i = 0; i < points.size(); ++i) {
    if (i == 0) {
      cairo_move_to(cr, points[i].x, points[i].y);
    } else {
      cairo_line_to(cr, points[i].x, points[i].y);
    }
  }
}

// Fills (if visible) and strokes (if wanted) the current path.
void FillAndStroke(cairo_t* cr, Rgba fill, Rgba stroke, float width) {
  if (fill.a > 0) {
    SetColor(cr, fill);
    cairo_fill_preserve(cr);
  }
  if (width > 0 && stroke.a > 0) {
    SetColor(cr, stroke);
    cairo_set_line_width(cr, width);
    cairo_stroke_preserve(cr);
  }
  cairo_new_path(cr);
}

struct ItemPainter {
  cairo_t* cr;

  void operator()(const ScenePolygon& p) const {
    TracePoints(cr, p.points);
    cairo_close_path(cr);
    FillAndStroke(cr, p.fill, p.stroke, p.stroke_width);
  }
  void operator()(const SceneRect& r) const {
    cairo_rectangle(cr, r.min.x, r.min.y, r.width, r.height);
    FillAndStroke(cr, r.fill, r.stroke, r.stroke_width);
  }
  void operator()(const ScenePolyline& l) const {
    TracePoints(cr, l.points);
    if (l.closed) cairo_close_path(cr);
    const double dashes[] = {6.0, 4.0};
    cairo_set_dash(cr, dashes, l.dashed ? 2 : 0, 0);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    FillAndStroke(cr, {0, 0, 0, 0}, l.color, l.width);
    cairo_set_dash(cr, nullptr, 0, 0);
  }
  void operator()(const SceneArrow& a) const {
    const double dx = a.to.x - a.from.x, dy = a.to.y - a.from.y;
    const double len = std::max(1e-3, std::hypot(dx, dy));
    const double ux = dx / len, uy = dy / len;
    cairo_move_to(cr, a.from.x, a.from.y);
    cairo_line_to(cr, a.to.x, a.to.y);
    cairo_move_to(cr, a.to.x - a.head * (ux * 0.866 - uy * 0.5),
                  a.to.y - a.head * (uy * 0.866 + ux * 0.5));
    cairo_line_to(cr, a.to.x, a.to.y);
    cairo_line_to(cr, a.to.x - a.head * (ux * 0.866 + uy * 0.5),
                  a.to.y - a.head * (uy * 0.866 - ux * 0.5));
    FillAndStroke(cr, {0, 0, 0, 0}, a.color, a.width);
  }
  void operator()(const SceneCircle& c) const {
    cairo_new_sub_path(cr);
    cairo_arc(cr, c.center.x, c.center.y, c.radius, 0, 2 * M_PI);
    FillAndStroke(cr, c.fill, c.stroke, c.stroke_width);
  }
  void operator()(const SceneText& t) const {
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, t.size);
    SetColor(cr, t.color);
    cairo_move_to(cr, t.pos.x, t.pos.y);
    cairo_show_text(cr, t.text.c_str());
    cairo_new_path(cr);
  }
};

cairo_status_t AppendBytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

absl::StatusOr<std::string> RenderPng(const Scene& scene) {
  if (scene.width <= 0 || scene.height <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("picture size ", scene.width, " x ", scene.height, " is empty"));
  }
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, scene.width, scene.height),
                     &cairo_surface_destroy);
  if (cairo_status_t s = cairo_surface_status(surface.get()); s != CAIRO_STATUS_SUCCESS) {
    return absl::ResourceExhaustedError(absl::StrCat("cannot create a ", scene.width, " x ",
                                                     scene.height,
                                                     " canvas: ", cairo_status_to_string(s)));
  }
  {
    ContextPtr cr(cairo_create(surface.get()), &cairo_destroy);
    SetColor(cr.get(), scene.background);
    cairo_paint(cr.get());
    const ItemPainter painter{cr.get()};
    for (const SceneItem& item : scene.items) std::visit(painter, item);
    if (cairo_status_t s = cairo_status(cr.get()); s != CAIRO_STATUS_SUCCESS) {
      return absl::InternalError(absl::StrCat("drawing failed: ", cairo_status_to_string(s)));
    }
  }
  cairo_surface_flush(surface.get());
  std::string png;
  if (cairo_status_t s = cairo_surface_write_to_png_stream(surface.get(), &AppendBytes, &png);
      s != CAIRO_STATUS_SUCCESS) {
    return absl::InternalError(absl::StrCat("PNG encoding failed: ", cairo_status_to_string(s)));
  }
  return png;
}

void ReleaseRenderCaches() {
  cairo_debug_reset_static_data();
  FcFini();
}

}  // namespace waymesh::render
