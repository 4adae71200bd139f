using System.Collections.Generic;
using UnityEditor;
using UnityEngine;
using UnityEngine.AI;
#if WAYMESH_AI_NAVIGATION
using Unity.AI.Navigation;
#endif

namespace Waymesh.Editor
{
    /// <summary>
    /// Reads the NavMesh baked into the loaded scenes into an ExportDocument: the triangulation
    /// exactly as NavMesh.CalculateTriangulation() returns it, the area table, every agent type
    /// (the baked one first) and the off-mesh links.
    /// </summary>
    internal static class NavMeshCollector
    {
        public static ExportDocument Collect(string sceneName)
        {
            NavMeshTriangulation triangulation = NavMesh.CalculateTriangulation();
            if (triangulation.indices == null || triangulation.indices.Length == 0)
            {
                throw new ExportException("scene \"" + sceneName + "\" has no baked NavMesh: bake it " +
                                          "(Window > AI > Navigation, or a NavMeshSurface) and export again");
            }
            var doc = new ExportDocument
            {
                UnityVersion = Application.unityVersion,
                SceneName = sceneName,
                Vertices = Flatten(triangulation.vertices),
                Indices = triangulation.indices,
                TriangleAreas = triangulation.areas,
                Areas = CollectAreas(),
                Agents = CollectAgents(),
            };
            AgentRecord baked = doc.Agents[0];
            doc.Links = LinkCollector.Collect(baked.AgentTypeId, baked.Radius);
            return doc;
        }

        private static float[] Flatten(Vector3[] vertices)
        {
            var flat = new float[vertices.Length * 3];
            for (int i = 0; i < vertices.Length; ++i)
            {
                flat[3 * i] = vertices[i].x;
                flat[3 * i + 1] = vertices[i].y;
                flat[3 * i + 2] = vertices[i].z;
            }
            return flat;
        }

        private static string[] AreaNames()
        {
#if UNITY_2023_1_OR_NEWER
            return NavMesh.GetAreaNames();
#else
            return GameObjectUtility.GetNavMeshAreaNames();
#endif
        }

        // Every named area with its id and default cost, by id.
        private static List<AreaRecord> CollectAreas()
        {
            var areas = new List<AreaRecord>();
            foreach (string name in AreaNames())
            {
                if (string.IsNullOrEmpty(name)) continue;
                int id = NavMesh.GetAreaFromName(name);
                if (id < 0) continue;
                areas.Add(new AreaRecord { Id = id, Name = name, Cost = NavMesh.GetAreaCost(id) });
            }
            areas.Sort((a, b) => a.Id.CompareTo(b.Id));
            return areas;
        }

        private static AgentRecord ToRecord(NavMeshBuildSettings s)
        {
            return new AgentRecord
            {
                AgentTypeId = s.agentTypeID,
                Name = NavMesh.GetSettingsNameFromID(s.agentTypeID),
                Radius = s.agentRadius,
                Height = s.agentHeight,
                MaxSlope = s.agentSlope,
                StepHeight = s.agentClimb,
                // Unity bakes with radius / 3 unless the voxel size is overridden.
                VoxelSize = s.overrideVoxelSize ? s.voxelSize : s.agentRadius / 3f,
            };
        }

        // All agent types, the one this NavMesh was baked for first (the importer reads agents[0]).
        private static List<AgentRecord> CollectAgents()
        {
            var agents = new List<AgentRecord>();
            for (int i = 0; i < NavMesh.GetSettingsCount(); ++i)
            {
                agents.Add(ToRecord(NavMesh.GetSettingsByIndex(i)));
            }
            if (agents.Count == 0) throw new ExportException("the project defines no NavMesh agent type");
            int baked = agents.FindIndex(a => a.AgentTypeId == BakedAgentTypeId(agents));
            if (baked < 0)
            {
                throw new ExportException("no agent type is named \"" + ExporterSettings.AgentName +
                                          "\" (see Window > AI > Navigation > Agents)");
            }
            AgentRecord first = agents[baked];
            agents.RemoveAt(baked);
            agents.Insert(0, first);
            return agents;
        }

        // The chosen agent type: the setting, else the scene's surfaces' agent, else the first.
        private static int BakedAgentTypeId(List<AgentRecord> agents)
        {
            string wanted = ExporterSettings.AgentName;
            if (!string.IsNullOrEmpty(wanted))
            {
                AgentRecord named = agents.Find(a => a.Name == wanted);
                return named != null ? named.AgentTypeId : int.MinValue;
            }
#if WAYMESH_AI_NAVIGATION
            var surfaceAgents = new HashSet<int>();
            foreach (NavMeshSurface surface in Object.FindObjectsOfType<NavMeshSurface>())
            {
                if (surface.isActiveAndEnabled && surface.navMeshData != null) surfaceAgents.Add(surface.agentTypeID);
            }
            if (surfaceAgents.Count > 1)
            {
                Debug.LogWarning("Waymesh: NavMeshSurfaces of several agent types are loaded; " +
                                 "CalculateTriangulation() merges them. Set the agent in " +
                                 "Tools/Waymesh or export one agent's surfaces at a time.");
            }
            foreach (int id in surfaceAgents) return id;
#endif
            return agents[0].AgentTypeId;
        }
    }
}
