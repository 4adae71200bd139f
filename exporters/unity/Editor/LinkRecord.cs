namespace Waymesh.Editor
{
    /// <summary>One authored off-mesh link in world space, as written to <c>off_mesh_links[]</c>.</summary>
    public sealed class LinkRecord
    {
        public float[] Start = new float[3];  // x, y, z in metres
        public float[] End = new float[3];
        public float Radius = 0.5f;           // how far from each end it may attach to the mesh
        public bool Bidirectional = true;
        public int Area;
        public float Cost = -1f;              // negative: length times the area's cost
    }
}
