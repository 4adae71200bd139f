namespace Waymesh.Editor
{
    /// <summary>One navigation area type, as written to <c>areas[]</c>.</summary>
    public sealed class AreaRecord
    {
        public int Id;             // 0..31 in Unity
        public string Name = "";
        public float Cost = 1f;    // default traversal cost multiplier, > 0
    }
}
