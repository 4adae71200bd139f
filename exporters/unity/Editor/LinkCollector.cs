using System.Collections.Generic;
using UnityEngine;
using UnityEngine.AI;
#if WAYMESH_AI_NAVIGATION
using Unity.AI.Navigation;
#endif

namespace Waymesh.Editor
{
    /// <summary>
    /// Off-mesh links of the loaded scenes in world space: built-in OffMeshLink components and,
    /// when the AI Navigation package (com.unity.ai.navigation) is installed, NavMeshLinks.
    /// Disabled components and links of other agent types are skipped. Sorted by position, so
    /// the same scene always exports (and hashes) the same way.
    /// </summary>
    internal static class LinkCollector
    {
        public static List<LinkRecord> Collect(int agentTypeId, float agentRadius)
        {
            var links = new List<LinkRecord>();
            CollectOffMeshLinks(agentRadius, links);
#if WAYMESH_AI_NAVIGATION
            CollectNavMeshLinks(agentTypeId, agentRadius, links);
#endif
            links.Sort(CompareByPosition);
            return links;
        }

        private static T[] FindAll<T>() where T : Object
        {
#if UNITY_2023_1_OR_NEWER
            return Object.FindObjectsByType<T>(FindObjectsSortMode.None);
#else
            return Object.FindObjectsOfType<T>();
#endif
        }

#pragma warning disable 618  // OffMeshLink is deprecated in newer Unity versions, still baked
        private static void CollectOffMeshLinks(float agentRadius, List<LinkRecord> links)
        {
            foreach (OffMeshLink link in FindAll<OffMeshLink>())
            {
                if (!link.isActiveAndEnabled || !link.activated) continue;
                if (link.startTransform == null || link.endTransform == null) continue;
                links.Add(new LinkRecord
                {
                    Start = ToArray(link.startTransform.position),
                    End = ToArray(link.endTransform.position),
                    Radius = agentRadius,  // Unity attaches OffMeshLink ends within the agent radius
                    Bidirectional = link.biDirectional,
                    Area = link.area,
                    Cost = link.costOverride < 0 ? -1f : link.costOverride,
                });
            }
        }
#pragma warning restore 618

#if WAYMESH_AI_NAVIGATION
        private static void CollectNavMeshLinks(int agentTypeId, float agentRadius, List<LinkRecord> links)
        {
            foreach (NavMeshLink link in FindAll<NavMeshLink>())
            {
                if (!link.isActiveAndEnabled || link.agentTypeID != agentTypeId) continue;
                links.Add(new LinkRecord
                {
                    Start = ToArray(EndPosition(link, true)),
                    End = ToArray(EndPosition(link, false)),
                    // A wide link attaches anywhere across its width.
                    Radius = Mathf.Max(agentRadius, link.width * 0.5f),
                    Bidirectional = link.bidirectional,
                    Area = link.area,
                    Cost = link.costModifier < 0 ? -1f : link.costModifier,
                });
            }
        }

        private static Vector3 EndPosition(NavMeshLink link, bool start)
        {
#if WAYMESH_AI_NAVIGATION_2
            Transform anchor = start ? link.startTransform : link.endTransform;
            if (anchor != null) return anchor.position;
#endif
            return link.transform.TransformPoint(start ? link.startPoint : link.endPoint);
        }
#endif

        private static float[] ToArray(Vector3 v)
        {
            return new[] { v.x, v.y, v.z };
        }

        private static int CompareByPosition(LinkRecord a, LinkRecord b)
        {
            for (int i = 0; i < 3; ++i)
            {
                int c = a.Start[i].CompareTo(b.Start[i]);
                if (c != 0) return c;
            }
            for (int i = 0; i < 3; ++i)
            {
                int c = a.End[i].CompareTo(b.End[i]);
                if (c != 0) return c;
            }
            return a.Area.CompareTo(b.Area);
        }
    }
}
