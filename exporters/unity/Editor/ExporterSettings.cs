using UnityEditor;

namespace Waymesh.Editor
{
    /// <summary>The exporter's per-user editor settings (EditorPrefs).</summary>
    public static class ExporterSettings
    {
        private const string ExportOnBuildKey = "Waymesh.ExportOnBuild";
        private const string AgentNameKey = "Waymesh.AgentName";
        private const string LastDirectoryKey = "Waymesh.LastDirectory";

        /// <summary>Whether player builds also write each scene's export (off by default).</summary>
        public static bool ExportOnBuild
        {
            get { return EditorPrefs.GetBool(ExportOnBuildKey, false); }
            set { EditorPrefs.SetBool(ExportOnBuildKey, value); }
        }

        /// <summary>
        /// Name of the agent type the NavMesh was baked for ("Humanoid"); empty: the agent of the
        /// scene's NavMeshSurfaces when they agree, else the first agent type.
        /// </summary>
        public static string AgentName
        {
            get { return EditorPrefs.GetString(AgentNameKey, ""); }
            set { EditorPrefs.SetString(AgentNameKey, value); }
        }

        /// <summary>Folder the export dialog opens in.</summary>
        public static string LastDirectory
        {
            get { return EditorPrefs.GetString(LastDirectoryKey, ""); }
            set { EditorPrefs.SetString(LastDirectoryKey, value); }
        }
    }
}
