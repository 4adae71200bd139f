// Rebuilds tests/data/unity_export_fixture.json with the exporter's own writer (no Unity
// needed) and prints it, so check_fixture.sh can compare it byte for byte with the fixture.
// The geometry comes from the fixture's arrays; the metadata is the scene the fixture models.

using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Waymesh.Editor;

internal static class FixtureCheck
{
    private static string[] Numbers(string json, string key)
    {
        Match m = Regex.Match(json, "\"" + key + "\": \\[([^\\]]*)\\]");
        if (!m.Success) throw new Exception("fixture has no " + key);
        return m.Groups[1].Value.Split(new[] { ',', ' ', '\n' }, StringSplitOptions.RemoveEmptyEntries);
    }

    private static int Main(string[] args)
    {
        string json = File.ReadAllText(args[0]);
        var doc = new ExportDocument
        {
            UnityVersion = "2022.3.10f1",
            SceneName = "FixtureYard",
            Vertices = Numbers(json, "vertices").Select(s => float.Parse(s, CultureInfo.InvariantCulture)).ToArray(),
            Indices = Numbers(json, "indices").Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray(),
            TriangleAreas = Numbers(json, "triangle_areas").Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToArray(),
        };
        doc.Agents.Add(new AgentRecord { AgentTypeId = 0, Name = "Humanoid", Radius = 0.5f, Height = 2f, MaxSlope = 45f, StepHeight = 0.4f, VoxelSize = 0.1666667f });
        doc.Agents.Add(new AgentRecord { AgentTypeId = -1372625422, Name = "Small", Radius = 0.25f, Height = 1f, MaxSlope = 30f, StepHeight = 0.2f, VoxelSize = 0.0833333f });
        doc.Areas.Add(new AreaRecord { Id = 0, Name = "Walkable", Cost = 1f });
        doc.Areas.Add(new AreaRecord { Id = 1, Name = "Not Walkable", Cost = 1f });
        doc.Areas.Add(new AreaRecord { Id = 2, Name = "Jump", Cost = 2f });
        doc.Areas.Add(new AreaRecord { Id = 3, Name = "Road", Cost = 0.5f });
        doc.Links.Add(new LinkRecord { Start = new[] { 7.5f, 0f, 3f }, End = new[] { 10.5f, 1.5f, 3f }, Radius = 0.5f, Bidirectional = true, Area = 2, Cost = -1f });
        Console.Out.Write(ExportJsonWriter.WriteToString(doc));
        // The streaming file writer must produce the same bytes as the string writer.
        string path = Path.Combine(Path.GetTempPath(), "waymesh-fixture-check.json");
        ExportJsonWriter.WriteFile(doc, path);
        bool same = File.ReadAllText(path) == ExportJsonWriter.WriteToString(doc);
        File.Delete(path);
        if (!same) Console.Error.WriteLine("WriteFile and WriteToString differ");
        return same ? 0 : 1;
    }
}
