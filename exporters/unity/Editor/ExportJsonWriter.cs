using System.Collections.Generic;
using System.IO;
using System.Text;

namespace Waymesh.Editor
{
    /// <summary>
    /// Writes an ExportDocument in the format of docs/export-format.md, laid out for readable
    /// diffs: one vertex or triangle per line, '\n' line ends, UTF-8 without a byte-order mark.
    /// The layout is fixed so identical bakes give identical files and scene hashes.
    /// </summary>
    public static class ExportJsonWriter
    {
        private const int AreasPerLine = 32;
        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false);

        /// <summary>
        /// Writes <paramref name="doc"/> to <paramref name="path"/> through a temporary file, so
        /// a failed export never leaves half a file. Streams: memory stays near the mesh size.
        /// </summary>
        public static void WriteFile(ExportDocument doc, string path)
        {
            Validate(doc);
            string content = path + ".content.tmp";
            string whole = path + ".tmp";
            try
            {
                using (var writer = new StreamWriter(content, false, Utf8))
                {
                    writer.NewLine = "\n";
                    WriteContent(writer, doc);
                }
                string hash;
                using (var stream = File.OpenRead(content)) hash = ContentHash.Of(stream);
                using (var output = new FileStream(whole, FileMode.Create, FileAccess.Write))
                {
                    using (var header = new StreamWriter(output, Utf8, 4096, true)) WriteHeader(header, doc, hash);
                    using (var stream = File.OpenRead(content)) stream.CopyTo(output);
                }
                if (File.Exists(path)) File.Delete(path);
                File.Move(whole, path);
            }
            finally
            {
                if (File.Exists(content)) File.Delete(content);
                if (File.Exists(whole)) File.Delete(whole);
            }
        }

        /// <summary>The same bytes as WriteFile, as a string (small exports and checks).</summary>
        public static string WriteToString(ExportDocument doc)
        {
            Validate(doc);
            var content = new StringWriter { NewLine = "\n" };
            WriteContent(content, doc);
            string body = content.ToString();
            var all = new StringWriter { NewLine = "\n" };
            WriteHeader(all, doc, ContentHash.Of(body));
            all.Write(body);
            return all.ToString();
        }

        // Everything the importer rejects is refused here with the same words, so a bad scene
        // fails in the editor, not later in `waymesh build`.
        private static void Validate(ExportDocument doc)
        {
            if (doc.Vertices.Length == 0 || doc.Vertices.Length % 3 != 0)
                throw new ExportException("vertices has " + doc.Vertices.Length + " numbers; a NavMesh needs x, y, z triples");
            if (doc.Indices.Length == 0 || doc.Indices.Length % 3 != 0)
                throw new ExportException("indices has " + doc.Indices.Length + " entries; a NavMesh needs triangles");
            int vertexCount = doc.Vertices.Length / 3;
            for (int i = 0; i < doc.Indices.Length; ++i)
            {
                if (doc.Indices[i] < 0 || doc.Indices[i] >= vertexCount)
                    throw new ExportException("indices[" + i + "] = " + doc.Indices[i] + " is out of range (vertex count " + vertexCount + ")");
            }
            if (doc.TriangleAreas.Length != doc.Indices.Length / 3)
                throw new ExportException("triangle_areas has " + doc.TriangleAreas.Length + " entries but indices define " + doc.Indices.Length / 3 + " triangles");
            if (doc.Agents.Count == 0) throw new ExportException("no agent type: the NavMesh settings list none");
            var declared = new HashSet<int>();
            foreach (AreaRecord area in doc.Areas)
            {
                if (area.Id < 0 || area.Id > 63) throw new ExportException("area \"" + area.Name + "\" has id " + area.Id + " (0..63 allowed)");
                if (!declared.Add(area.Id)) throw new ExportException("area id " + area.Id + " is declared twice");
                if (!(area.Cost > 0) || float.IsInfinity(area.Cost)) throw new ExportException("area \"" + area.Name + "\" has cost " + area.Cost + "; costs must be positive");
            }
            for (int t = 0; t < doc.TriangleAreas.Length; ++t)
            {
                if (!declared.Contains(doc.TriangleAreas[t]))
                    throw new ExportException("triangle_areas[" + t + "] = " + doc.TriangleAreas[t] + " is not a declared area");
            }
            for (int l = 0; l < doc.Links.Count; ++l)
            {
                if (!declared.Contains(doc.Links[l].Area))
                    throw new ExportException("off_mesh_links[" + l + "].area = " + doc.Links[l].Area + " is not a declared area");
            }
        }

        private static void WriteHeader(TextWriter w, ExportDocument doc, string hash)
        {
            w.Write("{\n");
            w.Write("  \"format\": " + JsonText.String(ExportFormat.FormatName) + ",\n");
            w.Write("  \"version\": " + JsonText.Integer(ExportFormat.FormatVersion) + ",\n");
            w.Write("  \"exporter\": {\"name\": " + JsonText.String(ExportFormat.ExporterName) +
                    ", \"version\": " + JsonText.String(ExportFormat.ExporterVersion) + "},\n");
            w.Write("  \"unity_version\": " + JsonText.String(doc.UnityVersion) + ",\n");
            w.Write("  \"scene\": {\"name\": " + JsonText.String(doc.SceneName) +
                    ", \"hash\": " + JsonText.String(hash) + "},\n");
        }

        // The hashed part: everything after the "scene" line.
        private static void WriteContent(TextWriter w, ExportDocument doc)
        {
            WriteAgents(w, doc.Agents);
            WriteAreas(w, doc.Areas);
            WriteVertices(w, doc.Vertices);
            WriteIndices(w, doc.Indices);
            WriteTriangleAreas(w, doc.TriangleAreas);
            WriteLinks(w, doc.Links);
            w.Write("}\n");
        }

        private static void WriteAgents(TextWriter w, List<AgentRecord> agents)
        {
            w.Write("  \"agents\": [\n");
            for (int i = 0; i < agents.Count; ++i)
            {
                AgentRecord a = agents[i];
                string at = "agents[" + i + "].";
                w.Write("    {\"agent_type_id\": " + JsonText.Integer(a.AgentTypeId) +
                        ", \"name\": " + JsonText.String(a.Name) +
                        ", \"radius\": " + JsonText.Number(a.Radius, at + "radius") +
                        ", \"height\": " + JsonText.Number(a.Height, at + "height") + ",\n");
                w.Write("     \"max_slope\": " + JsonText.Number(a.MaxSlope, at + "max_slope") +
                        ", \"step_height\": " + JsonText.Number(a.StepHeight, at + "step_height") +
                        ", \"voxel_size\": " + JsonText.Number(a.VoxelSize, at + "voxel_size") + "}");
                w.Write(i + 1 < agents.Count ? ",\n" : "\n");
            }
            w.Write("  ],\n");
        }

        private static void WriteAreas(TextWriter w, List<AreaRecord> areas)
        {
            w.Write("  \"areas\": [\n");
            for (int i = 0; i < areas.Count; ++i)
            {
                AreaRecord a = areas[i];
                w.Write("    {\"id\": " + JsonText.Integer(a.Id) + ", \"name\": " + JsonText.String(a.Name) +
                        ", \"cost\": " + JsonText.Number(a.Cost, "areas[" + i + "].cost") + "}");
                w.Write(i + 1 < areas.Count ? ",\n" : "\n");
            }
            w.Write("  ],\n");
        }

        private static void WriteVertices(TextWriter w, float[] vertices)
        {
            w.Write("  \"vertices\": [\n");
            for (int i = 0; i < vertices.Length; i += 3)
            {
                w.Write("    " + JsonText.Number(vertices[i], "vertices[" + i + "]") +
                        ", " + JsonText.Number(vertices[i + 1], "vertices[" + (i + 1) + "]") +
                        ", " + JsonText.Number(vertices[i + 2], "vertices[" + (i + 2) + "]"));
                w.Write(i + 3 < vertices.Length ? ",\n" : "\n");
            }
            w.Write("  ],\n");
        }

        private static void WriteIndices(TextWriter w, int[] indices)
        {
            w.Write("  \"indices\": [\n");
            for (int i = 0; i < indices.Length; i += 3)
            {
                w.Write("    " + JsonText.Integer(indices[i]) + ", " + JsonText.Integer(indices[i + 1]) +
                        ", " + JsonText.Integer(indices[i + 2]));
                w.Write(i + 3 < indices.Length ? ",\n" : "\n");
            }
            w.Write("  ],\n");
        }

        private static void WriteTriangleAreas(TextWriter w, int[] areas)
        {
            w.Write("  \"triangle_areas\": [\n");
            for (int i = 0; i < areas.Length; ++i)
            {
                if (i % AreasPerLine == 0) w.Write("    ");
                w.Write(JsonText.Integer(areas[i]));
                if (i + 1 == areas.Length) w.Write("\n");
                else w.Write((i + 1) % AreasPerLine == 0 ? ",\n" : ", ");
            }
            w.Write("  ],\n");
        }

        private static void WriteLinks(TextWriter w, List<LinkRecord> links)
        {
            if (links.Count == 0)
            {
                w.Write("  \"off_mesh_links\": []\n");
                return;
            }
            w.Write("  \"off_mesh_links\": [\n");
            for (int i = 0; i < links.Count; ++i)
            {
                LinkRecord l = links[i];
                string at = "off_mesh_links[" + i + "].";
                w.Write("    {\"start\": " + Point(l.Start, at + "start") + ", \"end\": " + Point(l.End, at + "end") +
                        ", \"radius\": " + JsonText.Number(l.Radius, at + "radius") + ",\n");
                w.Write("     \"bidirectional\": " + JsonText.Bool(l.Bidirectional) +
                        ", \"area\": " + JsonText.Integer(l.Area) +
                        ", \"cost\": " + JsonText.Number(l.Cost, at + "cost") + "}");
                w.Write(i + 1 < links.Count ? ",\n" : "\n");
            }
            w.Write("  ]\n");
        }

        private static string Point(float[] p, string where)
        {
            return "[" + JsonText.Number(p[0], where + "[0]") + ", " + JsonText.Number(p[1], where + "[1]") +
                   ", " + JsonText.Number(p[2], where + "[2]") + "]";
        }
    }
}
