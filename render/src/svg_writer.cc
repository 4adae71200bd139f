#include "waymesh/render/svg_writer.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace waymesh::render {
namespace {

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string Points(const std::vector<Point2>& points) {
  std::string s;
  for (const Point2& p : points) {
    absl::StrAppendFormat(&s, "%s%.2f,%.2f", s.empty() ? "" : " ", p.x, p.y);
  }
  return s;
}

std::string Fill(Rgba c) {
  if (c.a == 0) return "fill=\"none\"";
  return absl::StrFormat("fill=\"%s\" fill-opacity=\"%.3f\"", HexColor(c), c.a / 255.0);
}

std::string Stroke(Rgba c, float width) {
  if (width <= 0 || c.a == 0) return "stroke=\"none\"";
  return absl::StrFormat("stroke=\"%s\" stroke-opacity=\"%.3f\" stroke-width=\"%.2f\"", HexColor(c),
                         c.a / 255.0, width);
}

struct ItemWriter {
  std::string* out;

  void operator()(const ScenePolygon& p) const {
    absl::StrAppendFormat(out, "<polygon class=\"%s\" points=\"%s\" %s %s/>\n", Escape(p.tag),
                          Points(p.points), Fill(p.fill), Stroke(p.stroke, p.stroke_width));
  }
  void operator()(const SceneRect& r) const {
    absl::StrAppendFormat(
        out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" %s %s/>\n", r.min.x,
        r.min.y, r.width, r.height, Fill(r.fill), Stroke(r.stroke, r.stroke_width));
  }
  void operator()(const ScenePolyline& l) const {
    std::vector<Point2> points = l.points;
    if (l.closed && !points.empty()) points.push_back(points.front());
    absl::StrAppendFormat(
        out, "<polyline points=\"%s\" fill=\"none\" %s%s stroke-linejoin=\"round\"/>\n",
        Points(points), Stroke(l.color, l.width), l.dashed ? " stroke-dasharray=\"6 4\"" : "");
  }
  void operator()(const SceneArrow& a) const {
    const float dx = a.to.x - a.from.x, dy = a.to.y - a.from.y;
    const float len = std::max(1e-3f, std::hypot(dx, dy));
    const float ux = dx / len, uy = dy / len;
    // Two barbs at +-30 degrees behind the tip.
    const float bx = a.to.x - a.head * (ux * 0.866f - uy * 0.5f);
    const float by = a.to.y - a.head * (uy * 0.866f + ux * 0.5f);
    const float cx = a.to.x - a.head * (ux * 0.866f + uy * 0.5f);
    const float cy = a.to.y - a.head * (uy * 0.866f - ux * 0.5f);
    absl::StrAppendFormat(out,
                          "<path d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2fL%.2f %.2f\" "
                          "fill=\"none\" %s/>\n",
                          a.from.x, a.from.y, a.to.x, a.to.y, bx, by, a.to.x, a.to.y, cx, cy,
                          Stroke(a.color, a.width));
  }
  void operator()(const SceneCircle& c) const {
    absl::StrAppendFormat(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" %s %s/>\n", c.center.x,
                          c.center.y, c.radius, Fill(c.fill), Stroke(c.stroke, c.stroke_width));
  }
  void operator()(const SceneText& t) const {
    absl::StrAppendFormat(out,
                          "<text x=\"%.2f\" y=\"%.2f\" font-family=\"sans-serif\" "
                          "font-size=\"%.1f\" %s>%s</text>\n",
                          t.pos.x, t.pos.y, t.size, Fill(t.color), Escape(t.text));
  }
};

}  // namespace

std::string RenderSvg(const Scene& scene) {
  std::string out;
  absl::StrAppendFormat(&out,
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
                        "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
                        scene.width, scene.height, scene.width, scene.height);
  if (!scene.title.empty()) absl::StrAppendFormat(&out, "<title>%s</title>\n", Escape(scene.title));
  absl::StrAppendFormat(&out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" %s/>\n",
                        scene.width, scene.height, Fill(scene.background));
  const ItemWriter writer{&out};
  for (const SceneItem& item : scene.items) std::visit(writer, item);
  out += "</svg>\n";
  return out;
}

}  // namespace waymesh::render
