using System.IO;
using System.Security.Cryptography;
using System.Text;

namespace Waymesh.Editor
{
    /// <summary>
    /// The scene hash of an export: SHA-256 of the text the writer puts after the "scene" line
    /// (agents, areas, geometry, links). Identical bakes hash alike whatever the scene, exporter
    /// or Unity version, so `waymesh inspect` tells at a glance whether two maps hold the same
    /// navmesh.
    /// </summary>
    public static class ContentHash
    {
        /// <summary>"sha256:" and the lower-case hex digest of <paramref name="content"/>.</summary>
        public static string Of(Stream content)
        {
            using (var sha = SHA256.Create())
            {
                return Format(sha.ComputeHash(content));
            }
        }

        /// <summary>As above for text, hashed as UTF-8 without a byte-order mark.</summary>
        public static string Of(string content)
        {
            using (var bytes = new MemoryStream(new UTF8Encoding(false).GetBytes(content)))
            {
                return Of(bytes);
            }
        }

        private static string Format(byte[] digest)
        {
            var hex = new StringBuilder("sha256:", 7 + 2 * digest.Length);
            foreach (byte b in digest) hex.Append(b.ToString("x2"));
            return hex.ToString();
        }
    }
}
