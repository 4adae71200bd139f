using UnityEditor;

namespace Waymesh.Editor
{
    /// <summary>The checkable menu item Tools/Waymesh/Export On Build.</summary>
    internal static class ExportOnBuildMenu
    {
        private const string MenuPath = "Tools/Waymesh/Export On Build";

        [MenuItem(MenuPath)]
        private static void Toggle()
        {
            ExporterSettings.ExportOnBuild = !ExporterSettings.ExportOnBuild;
        }

        [MenuItem(MenuPath, true)]
        private static bool ShowState()
        {
            Menu.SetChecked(MenuPath, ExporterSettings.ExportOnBuild);
            return true;
        }
    }
}
