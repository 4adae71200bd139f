using System.Collections.Generic;

namespace Waymesh.Editor
{
    /// <summary>
    /// Everything one export file holds, free of Unity types so the writer can be checked
    /// outside the editor. Vertices, Indices and TriangleAreas are
    /// NavMesh.CalculateTriangulation()'s arrays, flattened and unchanged.
    /// </summary>
    public sealed class ExportDocument
    {
        public string UnityVersion = "";
        public string SceneName = "";
        public List<AgentRecord> Agents = new List<AgentRecord>();  // [0]: the baked agent
        public List<AreaRecord> Areas = new List<AreaRecord>();
        public float[] Vertices = new float[0];  // x0, y0, z0, x1, ...
        public int[] Indices = new int[0];       // three per triangle
        public int[] TriangleAreas = new int[0]; // one per triangle
        public List<LinkRecord> Links = new List<LinkRecord>();
    }
}
