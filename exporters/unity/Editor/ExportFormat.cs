namespace Waymesh.Editor
{
    /// <summary>
    /// Names and versions written into every export. FormatName and FormatVersion are the
    /// contract of docs/export-format.md: change FormatVersion only for incompatible changes.
    /// </summary>
    public static class ExportFormat
    {
        public const string FormatName = "waymesh-navmesh-export";
        public const int FormatVersion = 1;
        public const string ExporterName = "Waymesh Unity Exporter";
        public const string ExporterVersion = "1.0.0";
    }
}
