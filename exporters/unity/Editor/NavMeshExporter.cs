using System;
using System.IO;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace Waymesh.Editor
{
    /// <summary>
    /// Entry points: the menu item Tools/Waymesh/Export NavMesh, batch mode
    /// (-executeMethod Waymesh.Editor.NavMeshExporter.ExportFromCommandLine -waymeshOut PATH
    /// [-waymeshScene Assets/Scene.unity] [-waymeshAgent Humanoid]) and Export for scripts.
    /// </summary>
    public static class NavMeshExporter
    {
        public const string MenuPath = "Tools/Waymesh/Export NavMesh";

        /// <summary>Exports the NavMesh of the loaded scenes to <paramref name="path"/>.</summary>
        public static ExportDocument Export(string path, string sceneName = null)
        {
            ExportDocument doc = NavMeshCollector.Collect(sceneName ?? SceneManager.GetActiveScene().name);
            ExportJsonWriter.WriteFile(doc, path);
            return doc;
        }

        [MenuItem(MenuPath)]
        private static void ExportFromMenu()
        {
            string scene = SceneManager.GetActiveScene().name;
            string path = EditorUtility.SaveFilePanel("Export NavMesh for Waymesh", ExporterSettings.LastDirectory,
                                                      scene + ".json", "json");
            if (string.IsNullOrEmpty(path)) return;
            ExporterSettings.LastDirectory = Path.GetDirectoryName(path);
            try
            {
                ExportDocument doc = Export(path);
                Debug.Log(Summary(doc, path));
            }
            catch (Exception e) when (e is ExportException || e is IOException || e is UnauthorizedAccessException)
            {
                EditorUtility.DisplayDialog("Waymesh export failed", e.Message, "OK");
            }
        }

        /// <summary>
        /// Batch mode: exits with 0 after writing the export, 1 (and the reason in the log) when
        /// it cannot, so build pipelines stop on a scene without a NavMesh.
        /// </summary>
        public static void ExportFromCommandLine()
        {
            try
            {
                string path = Argument("-waymeshOut");
                if (string.IsNullOrEmpty(path)) throw new ExportException("missing -waymeshOut PATH");
                string scene = Argument("-waymeshScene");
                if (!string.IsNullOrEmpty(scene)) EditorSceneManager.OpenScene(scene, OpenSceneMode.Single);
                string agent = Argument("-waymeshAgent");
                if (agent != null) ExporterSettings.AgentName = agent;
                ExportDocument doc = Export(path);
                Debug.Log(Summary(doc, path));
                EditorApplication.Exit(0);
            }
            catch (Exception e)
            {
                Debug.LogError("Waymesh export failed: " + e.Message);
                EditorApplication.Exit(1);
            }
        }

        // The value after `name` on the editor's command line, or null.
        private static string Argument(string name)
        {
            string[] args = Environment.GetCommandLineArgs();
            for (int i = 0; i + 1 < args.Length; ++i)
            {
                if (args[i] == name) return args[i + 1];
            }
            return null;
        }

        private static string Summary(ExportDocument doc, string path)
        {
            return "Waymesh: exported \"" + doc.SceneName + "\" (" + doc.Indices.Length / 3 + " triangles, " +
                   doc.Areas.Count + " areas, " + doc.Links.Count + " off-mesh links, agent " +
                   doc.Agents[0].Name + ") to " + path;
        }
    }
}
