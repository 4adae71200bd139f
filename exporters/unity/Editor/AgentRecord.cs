namespace Waymesh.Editor
{
    /// <summary>One agent type's bake settings, as written to <c>agents[]</c>.</summary>
    public sealed class AgentRecord
    {
        public int AgentTypeId;
        public string Name = "";
        public float Radius;      // metres
        public float Height;      // metres
        public float MaxSlope;    // degrees
        public float StepHeight;  // metres
        public float VoxelSize;   // metres
    }
}
