using System.Globalization;
using System.Text;

namespace Waymesh.Editor
{
    /// <summary>
    /// JSON scalars exactly as the export writes them: invariant culture, floats in their
    /// shortest round-trip form ("R"), so a German-locale editor still writes 0.5, not 0,5.
    /// </summary>
    public static class JsonText
    {
        /// <summary>A finite float; <paramref name="where"/> names it in the error otherwise.</summary>
        public static string Number(float value, string where)
        {
            if (float.IsNaN(value) || float.IsInfinity(value))
            {
                throw new ExportException(where + " is " + value.ToString(CultureInfo.InvariantCulture) +
                                          ", which JSON cannot represent");
            }
            return value.ToString("R", CultureInfo.InvariantCulture);
        }

        /// <summary>An integer in invariant culture.</summary>
        public static string Integer(int value)
        {
            return value.ToString(CultureInfo.InvariantCulture);
        }

        /// <summary>true or false.</summary>
        public static string Bool(bool value)
        {
            return value ? "true" : "false";
        }

        /// <summary>A quoted JSON string with quotes, backslashes and control characters escaped.</summary>
        public static string String(string value)
        {
            var s = new StringBuilder(value.Length + 2);
            s.Append('"');
            foreach (char c in value)
            {
                if (c == '"' || c == '\\')
                {
                    s.Append('\\').Append(c);
                }
                else if (c < 0x20)
                {
                    s.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                }
                else
                {
                    s.Append(c);
                }
            }
            return s.Append('"').ToString();
        }
    }
}
