using System.Collections.Generic;
using System.IO;
using UnityEditor;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace Waymesh.Editor
{
    /// <summary>
    /// When ExporterSettings.ExportOnBuild is on, every scene of a player build that has a baked
    /// NavMesh is exported next to the build, as waymesh/SCENE.json, while Unity processes it.
    /// </summary>
    internal sealed class ExportOnBuild : IProcessSceneWithReport, IPostprocessBuildWithReport
    {
        private static readonly List<string> Written = new List<string>();

        public int callbackOrder { get { return 0; } }

        public void OnProcessScene(Scene scene, BuildReport report)
        {
            // report is null when a scene is processed for play mode, not for a build.
            if (report == null || !ExporterSettings.ExportOnBuild) return;
            string folder = Path.Combine(Path.GetDirectoryName(report.summary.outputPath) ?? ".", "waymesh");
            Directory.CreateDirectory(folder);
            string path = Path.Combine(folder, scene.name + ".json");
            try
            {
                NavMeshExporter.Export(path, scene.name);
                Written.Add(path);
            }
            catch (ExportException e)
            {
                Debug.LogWarning("Waymesh: scene \"" + scene.name + "\" not exported: " + e.Message);
            }
        }

        public void OnPostprocessBuild(BuildReport report)
        {
            if (Written.Count > 0) Debug.Log("Waymesh: exported " + string.Join(", ", Written.ToArray()));
            Written.Clear();
        }
    }
}
